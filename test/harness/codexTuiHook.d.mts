// Types for codexTuiHook.mjs, so TypeScript tests can use it.
/** The ids of the running hook processes of the interactive Codex session whose folder is `tui.cwd`. */
export function hookPidsOf(tui: { cwd: string }): number[];
