// Finds the hook process of one interactive Codex session (codexCli.mjs's startCodexTui): its
// command line is our hook's for Codex, and it runs in the session's folder, so a test kills this
// session's hook, never another session's on the same busy machine.
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';

/** Our hook's process as Codex runs it: `node "$AGENT_QUESTIONS_HOOK" codex`, the variable expanded. */
const HOOK_PROCESS = /approvalHook\.js codex/;

/** The ids of the running hook processes of the session whose folder is `tui.cwd`. */
export function hookPidsOf(tui) {
  const rows = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match && HOOK_PROCESS.test(match[2]));
  const inFolder = (pid) => {
    try {
      return readlinkSync(`/proc/${pid}/cwd`) === tui.cwd;
    } catch {
      return false; // ended meanwhile
    }
  };
  return rows.map((match) => Number(match[1])).filter(inFolder);
}
