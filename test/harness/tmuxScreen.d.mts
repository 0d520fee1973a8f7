// Types for tmuxScreen.mjs, so TypeScript tests can use it.
/** The screen once it matches `pattern`; fails with the screen after `ms` (the test's deadline by default). */
export function waitForScreen(screen: () => string, pattern: RegExp, who: string, ms?: number): Promise<string>;
/** Presses `key` (again if nothing shows for a while) until the screen matches `pattern`; resolves with the screen. */
export function pressUntil(press: (key: string) => void, screen: () => string, key: string, pattern: RegExp, who: string): Promise<string>;
