// Which environment variable names a secret may take. New terminals get every stored secret, so a
// name that changes how programs start (PATH, LD_PRELOAD, NODE_OPTIONS, …) would turn a typed "secret"
// into code that runs in the user's shell. Documented in the README's Secrets section.

/** Names read by shells, loaders, interpreters and tools to decide what runs and how. */
export const DENIED_ENV_VARS: readonly string[] = [
  // shells
  'PATH', 'HOME', 'SHELL', 'ENV', 'BASH_ENV', 'PROMPT_COMMAND', 'PS1', 'PS4', 'IFS', 'ZDOTDIR', 'CDPATH', 'SHELLOPTS', 'BASHOPTS',
  // editors, pagers and helpers other programs start
  'EDITOR', 'VISUAL', 'PAGER', 'BROWSER', 'LESSOPEN', 'SSH_ASKPASS', 'SSH_AUTH_SOCK', 'TMPDIR',
  // git
  'GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_EXEC_PATH', 'GIT_CONFIG', 'GIT_EDITOR', 'GIT_PAGER', 'GIT_ASKPASS', 'GIT_TEMPLATE_DIR',
  // language runtimes
  'NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'CLASSPATH', 'PERL5LIB', 'PERL5OPT', 'PERLLIB', 'RUBYOPT', 'RUBYLIB',
];

/** Prefixes of whole families: the dynamic loaders (LD_PRELOAD, DYLD_INSERT_LIBRARIES), git's config-by-environment, npm's settings. */
export const DENIED_ENV_VAR_PREFIXES: readonly string[] = ['LD_', 'DYLD_', 'GIT_CONFIG_', 'NPM_CONFIG_'];

/** Our own variables (AGENT_QUESTIONS_MCP_TOKEN, AGENT_QUESTIONS_UNATTENDED, …). */
export const RESERVED_ENV_VAR_PREFIX = 'AGENT_QUESTIONS_';

/** Why a secret may not be stored in `name`, as the end of a model-readable sentence; undefined when it may. */
export function envVarRefusal(name: string): string | undefined {
  const fix = 'use a name of your own such as "MYAPP_API_KEY"';
  if (name.startsWith(RESERVED_ENV_VAR_PREFIX)) return `"${name}" is reserved for Agent Questions itself; ${fix}`;
  if (DENIED_ENV_VARS.includes(name) || DENIED_ENV_VAR_PREFIXES.some((prefix) => name.startsWith(prefix))) return `"${name}" changes how programs run and cannot hold a secret; ${fix}`;
  return undefined;
}
