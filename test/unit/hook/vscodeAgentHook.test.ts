// The hook VS Code's own agent runs (dist/vscodeAgentHook.js), run as the real bundled command with
// the PreToolUse input of each harness on stdin, against a real endpoint found through the discovery
// file: the exact bytes it prints for allow, deny, hand-back `ask` and no decision (always exit 0).
// Inputs are in the shapes read in VS Code 1.139.1 / Copilot Chat 0.67.0 (Local harness), its Agent
// Host (Copilot harness) and Copilot CLI's documented file hooks (toolArgs as a JSON string).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EndpointDiscoveryFile } from '../../../src/mcp/endpointDiscoveryFile';
import { TOKEN, until, withEndpoint } from '../helpers/mcpHelpers';
import { copilot, copilotCli, local, PROJECT } from '../helpers/agentHookInputs';
import { ROOT } from '../helpers/repoRoot';

const HOOK_SCRIPT = join(ROOT, 'dist', 'vscodeAgentHook.js');
const TERMINAL = local('run_in_terminal', { command: 'touch held-marker', explanation: 'Create the marker file', goal: 'Create a marker', mode: 'sync' });

const LOCAL_ALLOW = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\n';

interface Home {
  env: Record<string, string | undefined>;
  home: string;
}

/** A scratch home folder for the hook (its discovery folder under XDG_CONFIG_HOME), removed after. */
async function withHome(body: (home: Home) => Promise<void>) {
  const home = mkdtempSync(join(tmpdir(), 'aq-vscode-hook-'));
  try {
    await body({ home, env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, 'config') } });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Runs the bundled hook with `input` on stdin; resolves with its exit code and output. */
function runHook(home: Home, input: unknown, args: string[] = ['86400']) {
  const child = spawn(process.execPath, [HOOK_SCRIPT, ...args], { env: home.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.end(typeof input === 'string' ? input : JSON.stringify(input));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

/** A scratch home and a real endpoint that the home's discovery file names for PROJECT: a VS Code window with the setting on. */
const withWindow = (body: (home: Home, started: Parameters<Parameters<typeof withEndpoint>[0]>[0]) => Promise<void>) =>
  withHome((home) =>
    withEndpoint(async (started) => {
      new EndpointDiscoveryFile(home.env, home.home).write(started.endpoint.url, TOKEN, [PROJECT], { warn: assert.fail });
      await body(home, started);
    }),
  );

/** The statuses requests settle with, as they settle. */
function settledStatuses(broker: { onDidChange: (listener: (change: { type: string; response?: { status: string } }) => void) => unknown }) {
  const settled: string[] = [];
  broker.onDidChange((change) => change.type === 'settled' && change.response && settled.push(change.response.status));
  return settled;
}

suite("VS Code's agent hook", () => {
  test('read-only tools and our own tools are allowed at once, without the endpoint; a path outside the folder, or a tool we do not know, gets no decision', async () => {
    await withHome(async (home) => {
      // No discovery file: nothing to reach, and none is needed.
      for (const input of [
        local('read_file', { filePath: `${PROJECT}/src/index.ts`, startLine: 1, endLine: 40 }),
        local('grep_search', { query: 'TODO', isRegexp: false, includePattern: 'src/**' }),
        local('ask_user', { questions: [{ id: 'db', header: 'DB', question: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }] }),
        local('list_dir', { path: 'src/../test' }),
      ])
        assert.deepEqual(await runHook(home, input).done, { code: 0, stdout: LOCAL_ALLOW, stderr: '' }, input.tool_name);
      assert.deepEqual(await runHook(home, copilot('view', { path: 'src/index.ts' })).done, { code: 0, stdout: '{"permissionDecision":"allow"}\n', stderr: '' });
      for (const input of [
        local('read_file', { filePath: '/home/dev/.ssh/id_ed25519' }),
        local('list_dir', { path: '../other' }),
        local('read_file', { filePath: 'file:///etc/passwd' }),
        local('run_vscode_command', { commandId: 'workbench.action.reloadWindow' }),
        local('mcp_github_create_issue', { title: 'x' }),
        copilot('view', { path: '/etc/shadow' }),
        { hook_event_name: 'PostToolUse', tool_name: 'read_file', tool_input: {} },
      ])
        assert.deepEqual(await runHook(home, input).done, { code: 0, stdout: '', stderr: '' }, JSON.stringify(input).slice(0, 80));
      assert.deepEqual(await runHook(home, 'not json').done, { code: 0, stdout: '', stderr: 'Agent Questions hook: the hook input is not JSON; no decision.\n' });
    });
  });

  test('run_in_terminal waits in the Queue as a Bash command; Allow once prints allow, Deny prints deny with our reason (Local harness)', async () => {
    await withWindow(async (home, { broker }) => {
      const allowed = runHook(home, TERMINAL);
      await until(() => broker.size === 1);
      const request = broker.list()[0]!;
      assert.equal(request.kind, 'permission');
      assert.equal(request.kind === 'permission' && request.toolCall?.command, 'touch held-marker');
      assert.equal(request.kind === 'permission' && request.toolCall?.cwd, PROJECT);
      assert.equal(request.source.label, "VS Code's agent");
      broker.decide(request.id, 'allow_once', { by: 'user', where: 'panel' });
      assert.deepEqual(await allowed.done, { code: 0, stdout: LOCAL_ALLOW, stderr: '' });

      const denied = runHook(home, TERMINAL);
      await until(() => broker.size === 1);
      broker.decide(broker.list()[0]!.id, 'deny', { by: 'user', where: 'panel' }, 'Use the Makefile target instead');
      assert.deepEqual(await denied.done, {
        code: 0,
        stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Use the Makefile target instead"}}\n',
        stderr: '',
      });
    });
  });

  test('the Copilot harness and Copilot CLI get the top-level answer: bash allowed, create_file-like edits asked as Write', async () => {
    await withWindow(async (home, { broker }) => {
      const bash = runHook(home, copilot('bash', { command: 'touch held-marker', description: 'Create the marker' }));
      await until(() => broker.size === 1);
      const first = broker.list()[0]!;
      assert.equal(first.kind === 'permission' && first.toolCall?.command, 'touch held-marker');
      broker.decide(first.id, 'allow_once', { by: 'user', where: 'panel' });
      assert.deepEqual(await bash.done, { code: 0, stdout: '{"permissionDecision":"allow"}\n', stderr: '' });

      const create = runHook(home, copilotCli('create', { path: '.vscode/settings.json', file_text: '{}' }));
      await until(() => broker.size === 1);
      const second = broker.list()[0]!;
      assert.equal(second.kind === 'permission' && second.toolCall?.tool, 'Write');
      broker.decide(second.id, 'deny', { by: 'user', where: 'panel' }, 'Not the editor settings');
      assert.deepEqual(await create.done, { code: 0, stdout: '{"permissionDecision":"deny","permissionDecisionReason":"Not the editor settings"}\n', stderr: '' });
    });
  });

  test('prevents a terminal command from running unasked when the endpoint is off: the hook hands it back to VS Code (ask), never no decision', async () => {
    await withHome(async (home) => {
      assert.deepEqual(await runHook(home, TERMINAL).done, {
        code: 0,
        stdout:
          '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Agent Questions could not be asked: no VS Code window has the Agent Questions endpoint on."}}\n',
        stderr: '',
      });
      // A window whose endpoint went away (its file left behind, nothing listening).
      new EndpointDiscoveryFile(home.env, home.home).write('http://127.0.0.1:9/mcp', TOKEN, [PROJECT], { warn: assert.fail });
      const gone = await runHook(home, copilot('bash', { command: 'touch held-marker' })).done;
      assert.equal(gone.code, 0);
      assert.match(
        gone.stdout,
        /^\{"permissionDecision":"ask","permissionDecisionReason":"Agent Questions could not be asked: nothing listens at http:\/\/127\.0\.0\.1:9\/mcp.*"\}\n$/,
      );
      assert.ok(!gone.stdout.includes(TOKEN));
    });
  });

  test('prevents a hook time limit from becoming a silent yes: before it, the hook hands back ask with the reason, and the request leaves the Queue', async () => {
    await withWindow(async (home, { broker }) => {
      const settled = settledStatuses(broker);
      // A 2-second hook time limit: the hook hands back at 1.5 s.
      const outcome = await runHook(home, TERMINAL, ['2']).done;
      assert.deepEqual(outcome, {
        code: 0,
        stdout:
          '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Not answered in Agent Questions after 2 seconds; confirm it here."}}\n',
        stderr: '',
      });
      await until(() => settled.length === 1);
      assert.deepEqual(settled, ['cancelled']);
      assert.equal(broker.size, 0);
    });
  });

  test('VS Code stopping the hook (the chat request cancelled) takes the request out of the Queue', async () => {
    await withWindow(async (home, { broker }) => {
      const settled = settledStatuses(broker);
      const { child, done } = runHook(home, TERMINAL);
      await until(() => broker.size === 1);
      child.kill('SIGTERM');
      assert.deepEqual(await done, { code: 0, stdout: '', stderr: '' });
      await until(() => settled.length === 1);
      assert.deepEqual(settled, ['cancelled']);
    });
  });

  test('prevents trusting a discovery file other users can write or read: its URL could answer allow', async () => {
    await withHome(async (home) => {
      await withEndpoint(async ({ broker, endpoint }) => {
        const file = new EndpointDiscoveryFile(home.env, home.home);
        file.write(endpoint.url, TOKEN, [PROJECT], { warn: assert.fail });
        assert.equal(statSync(file.path).mode & 0o777, 0o600);
        assert.equal(statSync(join(file.path, '..')).mode & 0o777, 0o700);
        // Were the file trusted, the request would wait in the Queue: the hook is stopped then, and the test fails.
        const answer = async () => {
          const { child, done } = runHook(home, TERMINAL);
          let ended = false;
          void done.then(() => (ended = true));
          await until(() => ended || broker.size > 0);
          child.kill('SIGTERM');
          assert.equal(broker.size, 0, 'the request reached the Queue');
          return (await done).stdout;
        };
        chmodSync(join(file.path, '..'), 0o777);
        assert.match(
          await answer(),
          /"permissionDecision":"ask","permissionDecisionReason":"Agent Questions could not be asked: the discovery file cannot be trusted: its folder is readable or writable by other users \(mode 777\)\."/,
        );
        chmodSync(join(file.path, '..'), 0o700);
        chmodSync(file.path, 0o644);
        assert.match(await answer(), /"permissionDecision":"ask".*no VS Code window has the Agent Questions endpoint on/);
        assert.equal(broker.size, 0);
      });
    });
  });

  test("the window whose folder holds the call's folder is asked; a window whose process is gone is not", async () => {
    await withHome(async (home) => {
      await withEndpoint(async ({ broker, endpoint }) => {
        // Another live window (this test's parent process) on another folder, and a stale file of a gone process.
        new EndpointDiscoveryFile(home.env, home.home, process.ppid).write('http://127.0.0.1:9/mcp', 'other-token', ['/home/dev/other'], { warn: assert.fail });
        const stale = new EndpointDiscoveryFile(home.env, home.home, 2 ** 22 + 1);
        stale.write('http://127.0.0.1:9/mcp', 'stale-token', [PROJECT], { warn: assert.fail });
        new EndpointDiscoveryFile(home.env, home.home).write(endpoint.url, TOKEN, ['/home/dev', PROJECT], { warn: assert.fail });
        const asked = runHook(home, TERMINAL);
        await until(() => broker.size === 1);
        broker.decide(broker.list()[0]!.id, 'allow_once', { by: 'user', where: 'panel' });
        assert.equal((await asked.done).stdout, LOCAL_ALLOW);
        stale.remove();
      });
    });
  });

  test('edits go to the approve tool as Write or Edit with their paths; an edit whose file cannot be told is handed back', async () => {
    await withWindow(async (home, { broker }) => {
      const cases: Array<[unknown, string, string]> = [
        [local('create_file', { filePath: `${PROJECT}/src/new.ts`, content: 'export {};\n' }), 'Write', `${PROJECT}/src/new.ts`],
        [local('replace_string_in_file', { filePath: `${PROJECT}/src/a.ts`, oldString: 'a', newString: 'b' }), 'Edit', `${PROJECT}/src/a.ts`],
        [local('apply_patch', { input: '*** Begin Patch\n*** Update File: src/b.ts\n@@\n-a\n+b\n*** End Patch', explanation: 'x' }), 'Edit', 'src/b.ts'],
      ];
      for (const [input, tool, path] of cases) {
        const run = runHook(home, input);
        await until(() => broker.size === 1);
        const request = broker.list()[0]!;
        assert.equal(request.kind === 'permission' && request.toolCall?.tool, tool);
        assert.ok(request.kind === 'permission' && JSON.stringify(request.toolCall?.fields).includes(path), path);
        broker.decide(request.id, 'allow_once', { by: 'user', where: 'panel' });
        assert.equal((await run.done).stdout, LOCAL_ALLOW);
      }
      const unreadable = await runHook(home, local('apply_patch', { input: 'rm -rf /', explanation: 'x' })).done;
      assert.equal(
        unreadable.stdout,
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Agent Questions cannot tell which files this patch changes."}}\n',
      );
      assert.equal(broker.size, 0);
    });
  });

  test('the discovery file is removed with the endpoint, and the token reaches no log', async () => {
    await withHome(async (home) => {
      const logs: string[] = [];
      const file = new EndpointDiscoveryFile(home.env, home.home);
      // A folder that cannot be made: the warning names the path, never the token.
      writeFileSync(join(home.home, 'config'), 'not a folder');
      file.write('http://127.0.0.1:9/mcp', TOKEN, [PROJECT], { warn: (m) => logs.push(m) });
      assert.equal(logs.length, 1);
      assert.ok(!logs[0]!.includes(TOKEN));
      rmSync(join(home.home, 'config'));
      file.write('http://127.0.0.1:9/mcp', TOKEN, [PROJECT], { warn: (m) => logs.push(m) });
      assert.ok(statSync(file.path).isFile());
      file.remove();
      assert.throws(() => statSync(file.path), /ENOENT/);
    });
  });
});
