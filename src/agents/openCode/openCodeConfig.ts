/// <reference path="../textImports.d.ts" />
// OpenCode's configuration: opencode.json with our MCP server, and the plugin beside it that brings
// its permission prompts and its own questions to the panel.
//
// The plugin is a file beside opencode.json that its `plugin` key names (a .opencode/ folder would
// make OpenCode install packages from npm first). OpenCode 1.18 never calls a plugin's
// `permission.ask` hook, so the plugin listens for its `permission.asked` / `question.asked` events,
// runs our hook command (`node "$AGENT_QUESTIONS_HOOK" opencode`, openCodeHook.ts) and answers
// through OpenCode's own reply routes. It fails closed: no hook, no endpoint or no decision leaves
// the request to OpenCode's own prompt. (The reference above types its text import in every
// project that reaches this file, test/ui's too.)
import { MCP_SERVER_NAME, MCP_TOKEN_VAR, MCP_URL_VAR } from '../../broker/contract/wireNames';
import { DAY_SECONDS, type ConfigAgent } from '../agentConfig';
import pluginSource from './openCodePlugin.js?text' with { type: 'text' };

/** The plugin's source, written to the user's disk as it is: openCodePlugin.js, bundled as text. */
export const OPENCODE_PLUGIN: string = pluginSource;
/** The plugin's file name, beside opencode.json. */
export const OPENCODE_PLUGIN_PATH = 'opencode-agent-questions.js';

/**
 * OpenCode substitutes {env:VAR} anywhere in its config. `mcp.servers` is the layout of OpenCode's
 * current docs, which 1.18 also reads. Its MCP calls time out after 60 s unless the server says
 * otherwise, and a question waits for the user: a day (catalog equal to execution, or 1.18 ignores it).
 * The plugin, a file beside it, brings its permission prompts and its own questions to the panel.
 */
function openCodeJson(): string {
  const day = DAY_SECONDS * 1000;
  const config = {
    $schema: 'https://opencode.ai/config.json',
    mcp: {
      servers: {
        [MCP_SERVER_NAME]: {
          type: 'remote',
          url: `{env:${MCP_URL_VAR}}`,
          headers: { Authorization: `Bearer {env:${MCP_TOKEN_VAR}}` },
          oauth: false,
          timeout: { catalog: day, execution: day },
        },
      },
    },
    plugin: [`./${OPENCODE_PLUGIN_PATH}`],
  };
  return JSON.stringify(config, null, 2);
}

export const openCodeConfig: ConfigAgent = {
  where: (l10n) => l10n.t('opencode.json and {0} beside it, in your project (or in ~/.config/opencode/)', OPENCODE_PLUGIN_PATH),
  config: () => {
    const files = [
      { path: 'opencode.json', text: openCodeJson() },
      { path: OPENCODE_PLUGIN_PATH, text: OPENCODE_PLUGIN },
    ];
    return {
      text: [
        '// opencode.json',
        files[0]!.text,
        '',
        `// ${OPENCODE_PLUGIN_PATH}: OpenCode's permission prompts (where its "permission" settings say "ask") and its own questions come to the Agent Questions sidebar`,
        files[1]!.text,
      ].join('\n'),
      files,
    };
  },
};
