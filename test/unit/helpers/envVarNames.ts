// Names for the secret-variable tests: what programs read to decide what they run, load or trust
// (none of them on the deny list, so each was once stored without a word), and credential names.

export const NOT_CREDENTIAL_NAMES = [
  // shells and the programs they start
  'PS0',
  'PS2',
  'FPATH',
  'LESSCLOSE',
  'MANPAGER',
  'VIMINIT',
  'EXINIT',
  // the C library: code and name resolution
  'GCONV_PATH',
  'LOCPATH',
  'HOSTALIASES',
  // git
  'GIT_EXTERNAL_DIFF',
  'GIT_PROXY_COMMAND',
  'GIT_SEQUENCE_EDITOR',
  'GIT_DIR',
  'GIT_WORK_TREE',
  // TLS trust and proxies
  'OPENSSL_CONF',
  'SSLKEYLOGFILE',
  'SSL_CERT_FILE',
  'NODE_EXTRA_CA_CERTS',
  'REQUESTS_CA_BUNDLE',
  'NODE_TLS_REJECT_UNAUTHORIZED',
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'ALL_PROXY',
  // package indexes and toolchains
  'PIP_INDEX_URL',
  'PIP_EXTRA_INDEX_URL',
  'UV_INDEX_URL',
  'GOPROXY',
  'GOFLAGS',
  'RUSTC_WRAPPER',
  'CARGO_HOME',
  'BUNDLE_GEMFILE',
  // language runtimes
  'PYTHONBREAKPOINT',
  'PYTHONUSERBASE',
  'DOTNET_STARTUP_HOOKS',
  'ELECTRON_RUN_AS_NODE',
  // configuration homes and clients that run helpers from their configuration
  'XDG_CONFIG_HOME',
  'KUBECONFIG',
  'DOCKER_HOST',
  'AWS_CONFIG_FILE',
  // where an SDK sends its requests, and the key with them
  'OPENAI_BASE_URL',
  'ANTHROPIC_BASE_URL',
];

export const CREDENTIAL_NAMES = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'STRIPE_SECRET_KEY',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'NPM_TOKEN',
  'CARGO_REGISTRY_TOKEN',
  'CLIENT_SECRET',
  'DB_PASSWORD',
  'MYSQL_PASSWD',
  'SMTP_PASS',
  'AZURE_DEVOPS_EXT_PAT',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'DATABASE_URL',
  'REDIS_URL',
  'MONGODB_URI',
  'SLACK_WEBHOOK_URL',
  'SENTRY_DSN',
  'PASSWORD',
  'TOKEN',
  'SECRET',
];
