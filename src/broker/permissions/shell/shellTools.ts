// Which tool calls carry a shell command line, whatever the agent or MCP server calls the tool:
// those are decided by the command rules, sub-command by sub-command, like Claude Code's Bash,
// and never remembered whole (an "Every mcp__x__Bash call" rule would allow any command).

/** Keys that hold a command line (compared in lower case, without `_` and `-`). */
const COMMAND_KEYS = new Set(['command', 'cmd', 'script', 'commandline', 'shellcommand']);

/**
 * A tool named for a shell, by the last part of its name (after `__`, `.`, `/` or `:`, so
 * `mcp__server__Bash` is `Bash`): a shell or terminal by name, a known shell tool of an agent
 * (Codex's exec_command and local_shell, Copilot's run_in_terminal…), a name ending in `_bash`,
 * `-shell`, `_terminal`, or a camel-case name ending in Bash, Shell or Terminal.
 */
const SHELL_NAME =
  /^(bash|sh|zsh|fish|ksh|dash|pwsh|powershell|cmd|shell|terminal|exec|execute|exec_command|execute_command|run_command|run_shell_command|shell_command|local_shell|run_in_terminal|run_terminal_cmd|run_terminal_command)$|[_-](bash|sh|zsh|shell|terminal)$/i;
const CAMEL_SHELL_NAME = /[a-z0-9](Bash|Shell|Terminal)$/;

/** Whether a tool is named for a shell (see SHELL_NAME). */
export function isShellTool(tool: string): boolean {
  const last = tool.split(/__|[./:]/).pop() ?? tool;
  return SHELL_NAME.test(last) || CAMEL_SHELL_NAME.test(last);
}

/**
 * The command line a tool call runs: `{ command, key }` when exactly one command key (COMMAND_KEYS,
 * top level) holds a string; `unreadable` when a command key holds anything else (an argv array),
 * when two command keys are set, or when a shell-named tool has no command key: such a call is
 * shown as it came and never remembered. Undefined for a tool that runs no command line.
 */
export function shellLineOf(tool: string, input: Record<string, unknown>): { command: string; key: string } | 'unreadable' | undefined {
  const keys = Object.keys(input).filter((key) => COMMAND_KEYS.has(key.toLowerCase().replace(/[_-]/g, '')) && input[key] !== undefined && input[key] !== null);
  if (keys.length === 0) return isShellTool(tool) ? 'unreadable' : undefined;
  if (keys.length > 1) return 'unreadable';
  const value = input[keys[0]!];
  return typeof value === 'string' ? { command: value, key: keys[0]! } : 'unreadable';
}
