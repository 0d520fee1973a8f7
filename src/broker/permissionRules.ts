// What "Always allow" remembers, scoped like Claude Code's own rules: for Bash the exact command
// or a command prefix the user picks (`npm test:*`), never the bare tool; for other tools the tool
// name; for other extensions their own permission key. A rule never allows a call that carries a
// warning (sandbox off, background, a path outside the workspace) or an invisible character.
import type { NewPermissionRequest } from './broker';
import type { RememberOption } from './schemas';
import { hasInvisible } from './visibleText';

const BASH_EXACT = 'mcp:bash-exact:';
const BASH_PREFIX = 'mcp:bash-prefix:';
const TOOL = 'mcp:tool:';
const API = 'api:';
/** Anything that chains, substitutes or redirects: a prefix rule never covers such a command. */
const SHELL_OPERATORS = /[;&|`$<>\\\n\r(){}]/;
const MAX_PREFIX_WORDS = 3;

const shortCommand = (command: string) => (command.length <= 60 ? command : `${command.slice(0, 59)}…`);

/** The rules "Always allow" may remember for a request, the narrowest first. */
export function rememberOptionsFor(request: NewPermissionRequest): RememberOption[] {
  const call = request.toolCall;
  if (!call) {
    if (!request.permissionKey) return [];
    return [{ key: `${API}${request.source.label}\n${request.permissionKey}`, label: request.permissionKey, description: `Requests from ${request.source.label} for "${request.permissionKey}"` }];
  }
  if (call.tool !== 'Bash') return [{ key: `${TOOL}${call.tool}`, label: call.tool, description: `Every ${call.tool} call, with any input` }];
  if (call.command === undefined) return [];
  const exact = { key: `${BASH_EXACT}${call.command}`, label: shortCommand(call.command), description: 'This exact command only' };
  return [exact, ...commandPrefixes(call.command).map((prefix) => ({ key: `${BASH_PREFIX}${prefix}`, label: `${prefix} …`, description: `Commands that start with "${prefix}" (never with ; & | $ \` < > or a new line in them)` }))];
}

/** The longest first: "npm run test", "npm run", "npm" (`npm run test:*` … `npm:*`). None when the command chains or substitutes. */
function commandPrefixes(command: string): string[] {
  if (SHELL_OPERATORS.test(command) || hasInvisible(command)) return [];
  const words = command.trim().split(/\s+/);
  const prefixes: string[] = [];
  for (let n = Math.min(MAX_PREFIX_WORDS, words.length); n >= 1; n--) prefixes.push(words.slice(0, n).join(' '));
  return prefixes;
}

/** Whether a remembered rule allows this request without asking. */
export function ruleAllows(key: string, request: NewPermissionRequest): boolean {
  const call = request.toolCall;
  if (!call) return request.permissionKey !== undefined && key === `${API}${request.source.label}\n${request.permissionKey}`;
  if (call.warnings.length > 0 || call.fields.some((f) => hasInvisible(f.value)) || hasInvisible(call.tool)) return false;
  if (call.tool !== 'Bash') return key === `${TOOL}${call.tool}`;
  const command = call.command;
  if (command === undefined || hasInvisible(command)) return false;
  if (key.startsWith(BASH_EXACT)) return command === key.slice(BASH_EXACT.length);
  if (!key.startsWith(BASH_PREFIX) || SHELL_OPERATORS.test(command)) return false;
  const prefix = key.slice(BASH_PREFIX.length);
  return command === prefix || (command.startsWith(prefix) && /^\s/.test(command.slice(prefix.length)));
}
