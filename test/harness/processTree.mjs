// Finds processes an agent started (its hooks), by their command line under one process: a test
// kills this session's hook, never another session's on the same busy machine.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** The ids of the processes below `root` (children, grandchildren, …) whose command line matches `pattern`. */
export function descendantsMatching(root, pattern) {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter(Boolean)
    .map(([, pid, ppid, args]) => ({ pid: Number(pid), ppid: Number(ppid), args }));
  const below = new Set([root]);
  // Parents come before children only by chance: repeat until no new descendant turns up.
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (!below.has(row.ppid) || below.has(row.pid)) continue;
      below.add(row.pid);
      grew = true;
    }
  }
  return rows.filter((row) => row.pid !== root && below.has(row.pid) && pattern.test(row.args)).map((row) => row.pid);
}

/** The id of the program a claudeCodeTmux.mjs session runs (Claude Code), from its private tmux server. */
export function claudePid(session) {
  const out = execFileSync('tmux', ['-S', join(session.dir, 'tmux.sock'), 'display-message', '-p', '-t', 'main', '#{pane_pid}'], { encoding: 'utf8' });
  return Number(out.trim());
}
