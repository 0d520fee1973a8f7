// npm run soak: does a question wait as long as the human? The real Claude Code, Codex and OpenCode
// CLIs, each with exactly the configuration "Connect an External Agent…" hands out, ask through the
// real MCP endpoint (and the real hook command) while nobody answers for AGENT_QUESTIONS_SOAK_SECONDS
// (default 360: past every CLI's default limit, Codex's and OpenCode's 300 s included); then each
// request is answered and the soak checks that the agent's model received the answer. All runs wait
// at once, so the soak takes the wait plus a minute. Plain Node: the endpoint's code is the
// extension's, the panel is left out (the external test layer answers in the real panel).
//   AGENT_QUESTIONS_SOAK_SECONDS=90  AGENT_QUESTIONS_SOAK_ONLY=claude   (runs whose name matches)
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeCodeHookSettings, claudeCodeMcpJson } from '../../src/agents/claudeCode/claudeCodeConfig';
import { agentConfigs } from '../../src/agents/configRegistry';
import { HOOK_VAR, MCP_TOKEN_VAR, MCP_URL_VAR } from '../../src/broker/contract/wireNames';
import { McpEndpoint } from '../../src/mcp/mcpEndpoint';
import { LaterAnswers } from '../../src/broker/questions/laterAnswers';
import { createToolServer } from '../../src/mcp/mcpTools';
import { startModelServer } from '../fixtures/anthropic-model/server.mjs';
import { startChatModelServer } from '../fixtures/openai-chat-model/server.mjs';
import { startResponsesModel } from '../fixtures/openai-responses-model/server.mjs';
import { provisionCodex, provisionOpenCode } from '../harness/agentClis.mjs';
import { openCodeProject, startOpenCode } from '../harness/openCodeCli.mjs';
import { provisionClaudeCode, runClaude } from '../harness/claudeCode.mjs';
import { startInteractiveClaude } from '../harness/claudeCodeTmux.mjs';
import { runCodexExec } from '../harness/codexCli.mjs';
import { makeBroker, makePolicy } from '../unit/helpers/fakes';

const root = join(__dirname, '..', '..', '..'); // out/test/bench
const waitSeconds = Number(process.env.AGENT_QUESTIONS_SOAK_SECONDS ?? 360);
const only = new RegExp(process.env.AGENT_QUESTIONS_SOAK_ONLY ?? '.');
const TOKEN = 'soak-token-0123456789abcdefghijklmnopqrstuv';

const question = (id: string, text: string) => ({ questions: [{ id, header: 'Database', question: text, options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }] });
const bashCall = (command: string) => ({ name: 'Bash', input: { command, description: 'Create a marker file' } });

interface Run {
  name: string;
  /** Text that only this run's request carries. */
  marker: string;
  kind: 'question' | 'permission';
  /** Resolves true when the agent's model received the answer. */
  finished: Promise<{ ok: boolean; detail: string }>;
}

async function main() {
  provisionClaudeCode();
  provisionCodex();
  provisionOpenCode();
  const hook = join(root, 'dist', 'approvalHook.js');
  if (!existsSync(hook)) throw new Error('dist/approvalHook.js is missing: run `node esbuild.mjs` first');
  const { broker } = makeBroker();
  const policy = makePolicy();
  const endpoint = await McpEndpoint.start({
    port: 0,
    token: () => TOKEN,
    log: () => undefined,
    createServer: (scope) =>
      createToolServer({ broker, later: new LaterAnswers({ keepMs: () => 60_000 }), policy, timeoutMs: () => 0, log: () => undefined, workspaceFolders: () => [] }, 'soak', scope),
  });
  const terminalEnv = { [MCP_URL_VAR]: endpoint.url, [MCP_TOKEN_VAR]: TOKEN, [HOOK_VAR]: hook };
  const anthropic = await startModelServer({
    scenarios: [
      { match: 'soak:claude-ask', calls: [{ name: 'mcp__agent-questions__ask_user', input: question('claude_print', 'Claude Code print mode: which database?') }] },
      { match: 'soak:claude-approve', calls: [bashCall('touch claude-approve-marker && echo done')] },
      { match: 'soak:claude-hook', calls: [bashCall('touch claude-hook-marker && echo done')], reply: 'BASH RESULT (error={is_error}): {result}' },
    ],
  });
  const responses = await startResponsesModel({
    scenarios: [
      { match: 'soak:codex-ask', calls: [{ name: 'ask_user', input: question('codex', 'Codex: which database?') }] },
      {
        match: 'soak:codex-hook',
        calls: [
          { name: 'exec_command', input: { cmd: 'touch codex-hook-marker && echo done', sandbox_permissions: 'require_escalated', justification: 'Create the marker file' } },
        ],
      },
    ],
  });
  const chat = await startChatModelServer({
    scenarios: [{ match: 'soak:opencode-ask', calls: [{ name: 'agent-questions_ask_user', input: question('opencode', 'OpenCode: which database?') }] }],
  });
  const configs = agentConfigs(endpoint.url);
  const scratch = mkdtempSync(join(tmpdir(), 'aq-soak-'));
  const runs: Run[] = [];
  const cleanUps: Array<() => void> = [];
  const finishedBy = (child: { done: Promise<{ code: number | null; stdout: string; stderr: string }> }, pattern: RegExp) =>
    child.done.then(({ code, stdout, stderr }) => ({
      ok: pattern.test(stdout),
      detail: `exit ${code}; ${(stdout + stderr).trim().split('\n').slice(-3).join(' | ').slice(0, 300)}`,
    }));
  const claudeArgs = { modelUrl: anthropic.url, mcpUrl: '', mcpConfig: claudeCodeMcpJson(), extraEnv: terminalEnv };

  if (only.test('claude-ask')) {
    const run = runClaude({ ...claudeArgs, prompt: 'Go. soak:claude-ask', allowedTools: ['mcp__agent-questions__ask_user'] });
    runs.push({
      name: 'claude-ask (claude -p, ask_user over MCP)',
      marker: 'Claude Code print mode',
      kind: 'question',
      finished: finishedBy(run, /MODEL RECEIVED: The user answered 1 question/),
    });
  }
  if (only.test('claude-approve')) {
    const cwd = join(scratch, 'claude-approve');
    mkdirSync(cwd);
    const run = runClaude({ ...claudeArgs, prompt: 'Go. soak:claude-approve', permissionPromptTool: 'mcp__agent-questions__approve', cwd });
    runs.push({
      name: 'claude-approve (claude -p --permission-prompt-tool)',
      marker: 'claude-approve-marker',
      kind: 'permission',
      finished: finishedBy(run, /MODEL RECEIVED: done/).then((r) => ({ ...r, ok: r.ok && existsSync(join(cwd, 'claude-approve-marker')) })),
    });
  }
  if (only.test('claude-hook')) {
    const session = startInteractiveClaude({ modelUrl: anthropic.url, env: terminalEnv, projectFiles: { '.claude/settings.json': claudeCodeHookSettings() } });
    const finished = (async () => {
      try {
        await session.ready();
        await session.prompt('Go. soak:claude-hook', anthropic);
        const screen = await session.waitFor(/BASH RESULT \(error=\w+\): [^\n]*/, (waitSeconds + 120) * 1000).catch((error: Error) => error.message);
        return {
          ok: /BASH RESULT \(error=false\): done/.test(screen) && existsSync(join(session.project, 'claude-hook-marker')),
          detail: /BASH RESULT[^\n]*/.exec(screen)?.[0] ?? screen.slice(-300),
        };
      } finally {
        await session.close();
      }
    })();
    runs.push({ name: 'claude-hook (interactive claude, PermissionRequest hook)', marker: 'claude-hook-marker', kind: 'permission', finished });
  }
  const codexConfig = configs.find((c) => c.agent === 'Codex CLI')!.text;
  if (only.test('codex-ask')) {
    const run = runCodexExec({ prompt: 'Go. soak:codex-ask', config: codexConfig, modelUrl: responses.url, extraEnv: terminalEnv });
    runs.push({
      name: 'codex-ask (codex exec, ask_user over MCP)',
      marker: 'Codex: which database',
      kind: 'question',
      finished: finishedBy(run, /MODEL RECEIVED: [\s\S]*The user answered 1 question/),
    });
  }
  if (only.test('codex-hook')) {
    const cwd = join(scratch, 'codex-hook');
    mkdirSync(cwd);
    const run = runCodexExec({
      prompt: 'Go. soak:codex-hook',
      config: codexConfig,
      modelUrl: responses.url,
      extraEnv: terminalEnv,
      flags: ['--approve-for-me', '--dangerously-bypass-hook-trust'],
      cwd,
    });
    runs.push({
      name: 'codex-hook (codex exec, PermissionRequest hook)',
      marker: 'codex-hook-marker',
      kind: 'permission',
      finished: finishedBy(run, /MODEL RECEIVED: [\s\S]*exited with code 0/).then((r) => ({ ...r, ok: r.ok && existsSync(join(cwd, 'codex-hook-marker')) })),
    });
  }
  if (only.test('opencode-ask')) {
    const where = openCodeProject({ files: configs.find((c) => c.agent === 'OpenCode')!.files!, modelUrl: chat.url, terminalEnv });
    cleanUps.push(where.cleanUp);
    const run = startOpenCode(['run', 'Go. soak:opencode-ask'], where);
    runs.push({
      name: 'opencode-ask (opencode run, ask_user over MCP)',
      marker: 'OpenCode: which database',
      kind: 'question',
      finished: finishedBy(run, /MODEL RECEIVED: The user answered 1 question/),
    });
  }

  console.log(`${runs.length} runs wait ${waitSeconds} s each for an answer (from when their request arrives)`);
  const started = Date.now();
  const answered = new Set<string>();
  const results = await Promise.all(
    runs.map(async (run) => {
      const find = () => broker.list().find((r) => JSON.stringify(r).includes(run.marker));
      let request = find();
      let gaveUp: { ok: boolean; detail: string } | undefined;
      void run.finished.then((r) => (gaveUp = r));
      while (!request && !gaveUp && Date.now() - started < 180_000) {
        await new Promise((r) => setTimeout(r, 200));
        request = find();
      }
      if (!request) return { run, askedAfter: NaN, result: gaveUp ?? { ok: false, detail: 'the request never arrived' } };
      const askedAt = Date.now();
      console.log(`  ${run.name}: asked ${((askedAt - started) / 1000).toFixed(0)} s after start`);
      while (Date.now() - askedAt < waitSeconds * 1000 && !gaveUp) await new Promise((r) => setTimeout(r, 1000));
      const stillWaiting = broker.get(request.id) !== undefined;
      if (stillWaiting) {
        if (run.kind === 'question')
          broker.reply(
            request.id,
            { [(request as { questions: Array<{ id: string }> }).questions[0]!.id]: { selected: ['SQLite'], skipped: false } },
            { by: 'user', where: 'panel' },
          );
        else broker.decide(request.id, 'allow_once', { by: 'user', where: 'panel' });
        answered.add(run.name);
      }
      const result = await Promise.race([
        run.finished,
        new Promise<{ ok: boolean; detail: string }>((r) => setTimeout(() => r({ ok: false, detail: 'did not finish within 120 s of the answer' }), 120_000)),
      ]);
      return {
        run,
        askedAfter: (askedAt - started) / 1000,
        answeredAfter: stillWaiting ? (Date.now() - askedAt) / 1000 : undefined,
        result: stillWaiting ? result : { ok: false, detail: `the agent gave up before the answer: ${result.detail}` },
      };
    }),
  );
  console.log(`\nlong-wait soak: answers given ${waitSeconds} s after each request arrived`);
  for (const { run, result } of results) console.log(`  ${result.ok ? 'PASS' : 'FAIL'}  ${run.name}: ${result.ok ? 'the model received the answer' : result.detail}`);
  await endpoint.close();
  await Promise.all([anthropic.close(), responses.close(), chat.close()]);
  rmSync(scratch, { recursive: true, force: true });
  for (const cleanUp of cleanUps) cleanUp();
  process.exit(results.every((r) => r.result.ok) ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
