// Which environment variable names a secret may take. New terminals get every stored secret, so a
// name that changes how programs start (PATH, LD_PRELOAD, NODE_OPTIONS, …) would turn a typed "secret"
// into code that runs in the user's shell. The names below are refused outright; beyond them no list
// of such names is ever complete (PS0, GIT_EXTERNAL_DIFF, PYTHONBREAKPOINT, HTTPS_PROXY, …), so only a
// name that looks like a credential is stored without asking: any other needs the user's confirmation
// in the panel. Documented in docs/security.md ("Secret names", generated from these lists).

/** Names read by shells, loaders, interpreters and tools to decide what runs and how. */
export const DENIED_ENV_VARS: readonly string[] = [
  // shells
  'PATH',
  'HOME',
  'SHELL',
  'ENV',
  'BASH_ENV',
  'PROMPT_COMMAND',
  'PS1',
  'PS4',
  'IFS',
  'ZDOTDIR',
  'CDPATH',
  'SHELLOPTS',
  'BASHOPTS',
  // editors, pagers and helpers other programs start
  'EDITOR',
  'VISUAL',
  'PAGER',
  'BROWSER',
  'LESSOPEN',
  'SSH_ASKPASS',
  'SSH_AUTH_SOCK',
  'TMPDIR',
  // git
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_EXEC_PATH',
  'GIT_CONFIG',
  'GIT_EDITOR',
  'GIT_PAGER',
  'GIT_ASKPASS',
  'GIT_TEMPLATE_DIR',
  // language runtimes
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONHOME',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  'PERL5LIB',
  'PERL5OPT',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
];

/** Prefixes of whole families: the dynamic loaders (LD_PRELOAD, DYLD_INSERT_LIBRARIES), git's config-by-environment, npm's settings. */
export const DENIED_ENV_VAR_PREFIXES: readonly string[] = ['LD_', 'DYLD_', 'GIT_CONFIG_', 'NPM_CONFIG_'];

/** Our own variables (AGENT_QUESTIONS_MCP_TOKEN, AGENT_QUESTIONS_UNATTENDED, …). */
export const RESERVED_ENV_VAR_PREFIX = 'AGENT_QUESTIONS_';

/** Why a secret may not be stored in `name`, as the end of a model-readable sentence; undefined when it may. */
export function envVarRefusal(name: string): string | undefined {
  const fix = 'use a name of your own such as "MYAPP_API_KEY"';
  if (name.startsWith(RESERVED_ENV_VAR_PREFIX)) return `"${name}" is reserved for Agent Questions itself; ${fix}`;
  if (DENIED_ENV_VARS.includes(name) || DENIED_ENV_VAR_PREFIXES.some((prefix) => name.startsWith(prefix)))
    return `"${name}" changes how programs run and cannot hold a secret; ${fix}`;
  return undefined;
}

/** Endings of names that hold a credential: a value there only says who the user is. */
export const CREDENTIAL_SUFFIXES: readonly string[] = ['_KEY', '_TOKEN', '_SECRET', '_PASSWORD', '_PASSWD', '_PASS', '_PAT', '_CREDENTIALS', '_DSN', '_URL', '_URI'];

/** Whole names that hold a credential. */
export const CREDENTIAL_NAMES: readonly string[] = ['PASSWORD', 'TOKEN', 'SECRET'];

/**
 * Words that make a `…_URL` or `…_URI` name say where programs fetch packages or send their requests
 * (PIP_INDEX_URL, OPENAI_BASE_URL, AWS_ENDPOINT_URL): such a value changes whom programs trust, and
 * where their keys go, so it is confirmed like any other name. DATABASE_URL or REDIS_URL are not.
 */
export const TRUST_WORDS: readonly string[] = [
  'INDEX',
  'REGISTRY',
  'MIRROR',
  'PROXY',
  'BASE',
  'ENDPOINT',
  'API',
  'SERVER',
  'HOST',
  'DOWNLOAD',
  'REPO',
  'REPOSITORY',
  'REPOSITORIES',
  'CDN',
  'DIST',
  'UPDATE',
];

/** Whether `name` looks like it holds a credential (OPENAI_API_KEY, GITHUB_TOKEN, DATABASE_URL), and nothing else. */
export function isCredentialName(name: string): boolean {
  if (CREDENTIAL_NAMES.includes(name)) return true;
  const suffix = CREDENTIAL_SUFFIXES.find((s) => name.endsWith(s) && name.length > s.length);
  if (!suffix) return false;
  if (suffix !== '_URL' && suffix !== '_URI') return true;
  return !name.split('_').some((word) => TRUST_WORDS.includes(word));
}

/** Whether the user must confirm `name` in the panel before a secret is stored in it: allowed, but not a credential name. */
export function envVarNeedsConfirmation(name: string): boolean {
  return envVarRefusal(name) === undefined && !isCredentialName(name);
}
