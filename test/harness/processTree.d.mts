// Types for processTree.mjs, so TypeScript tests can use it.
/** The ids of the processes below `root` whose command line matches `pattern`. */
export function descendantsMatching(root: number, pattern: RegExp): number[];
/** The id of the program a claudeCodeTmux.mjs session runs (Claude Code). */
export function claudePid(session: { dir: string }): number;
