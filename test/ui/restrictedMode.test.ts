import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../harness/codeServer.mjs';
import { quietFor, until } from '../harness/deadline';
import { invoke, toolResult } from './panelHelpers';
import { enableEndpoint, openWorkbench, screenshotFailures, type Workbench } from './workbench';

/** Between two looks that nothing started: the checks are repeated over a few seconds, time for a wrongly started endpoint to listen. */
const LOOK_AGAIN_AFTER_MS = 200;

const DATABASE = { questions: [{ id: 'database', header: 'Database', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }] };

/** Whether anything accepts a TCP connection on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

// A cloned repository's .vscode/settings.json is written by whoever wrote the repository. Until the
// user trusts the folder it must not decide who answers (a scripted answers file) or who may connect.
suite('Restricted Mode: an untrusted workspace', () => {
  let workbench: Workbench;
  let folder: string;
  let port: number;

  const mcpUrl = async () => (await workbench.driver<{ value: { url?: string } }>('command', { id: 'agentQuestions.internal.mcpState' })).value.url;
  const pendingIds = async () => (await workbench.driver<Array<{ id: string }>>('list')).map((r) => r.id);

  suiteSetup(async function () {
    port = await freePort();
    // A scratch folder: the shared fixture workspace is what `npm start` opens.
    folder = mkdtempSync(join(tmpdir(), 'agent-questions-untrusted-'));
    mkdirSync(join(folder, '.vscode'));
    writeFileSync(
      join(folder, '.vscode', 'settings.json'),
      JSON.stringify(
        { 'agentQuestions.mode': 'answersFile', 'agentQuestions.answersFile': 'answers.json', 'agentQuestions.mcp.enabled': true, 'agentQuestions.mcp.port': port },
        null,
        2,
      ),
    );
    writeFileSync(join(folder, 'answers.json'), JSON.stringify({ database: 'SQLite' }));
    workbench = await openWorkbench({ workspace: folder, workspaceTrust: true });
    assert.equal((await workbench.driver<{ value: boolean }>('isTrusted')).value, false, 'the folder opened untrusted, in Restricted Mode');
  });

  screenshotFailures(() => workbench);

  suiteTeardown(async () => {
    await workbench?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test("an untrusted workspace's settings cannot turn the MCP endpoint on", async () => {
    // The extension is active (the driver reached its API); give a wrongly started endpoint time to listen.
    for (let i = 0; i < 25; i++) {
      assert.equal(await mcpUrl(), undefined, 'the endpoint is not running');
      assert.equal(await accepts(port), false, `nothing listens on the workspace's port ${port}`);
      await quietFor(LOOK_AGAIN_AFTER_MS);
    }
  });

  test("an untrusted workspace's settings cannot pre-answer questions from its answers file", async () => {
    const call = await invoke(workbench, DATABASE);
    // Answered from the file, it would never wait: then this fails at the test's deadline.
    const pending = await until('the question to wait in the queue', async () => {
      const ids = await pendingIds();
      return ids.length > 0 ? ids : undefined;
    });
    assert.equal(pending.length, 1, 'the question waits in the queue for the user, not answered from the file');
    await workbench.driver('reject', { requestId: pending[0] });
    assert.equal((await toolResult(workbench, call)).json.status, 'rejected');
  });

  test("prevents a trusted repository from flipping who answers: after trust, the workspace's settings still neither start the endpoint nor answer from its file; the user's settings do", async () => {
    const { page } = workbench;
    // The trust editor, as "Manage" on the Restricted Mode banner opens it.
    await workbench.driver('command', { id: 'workbench.trust.manage' });
    await page.locator('.workspace-trust-buttons .monaco-button', { hasText: 'Trust' }).first().click();
    await until('the workspace to be trusted', async () => (await workbench.driver<{ value: boolean }>('isTrusted')).value);
    assert.equal((await workbench.driver<{ value: boolean }>('isTrusted')).value, true);
    for (let i = 0; i < 15; i++) {
      assert.equal(await mcpUrl(), undefined, 'the endpoint is not running');
      await quietFor(LOOK_AGAIN_AFTER_MS);
    }
    assert.equal(await accepts(port), false);
    const call = await invoke(workbench, DATABASE);
    // Answered from the file, it would never wait: then this fails at the test's deadline.
    const pending = await until('the question to wait in the queue', async () => {
      const ids = await pendingIds();
      return ids.length > 0 ? ids : undefined;
    });
    assert.equal(pending.length, 1, 'the question waits for the user');
    await workbench.driver('reject', { requestId: pending[0] });
    assert.equal((await toolResult(workbench, call)).json.status, 'rejected');

    // The same settings in the user's settings apply.
    await workbench.driver('config', { section: 'agentQuestions', key: 'mcp.port', value: port });
    assert.equal(await enableEndpoint(workbench), `http://127.0.0.1:${port}/mcp`);
    await workbench.driver('config', { section: 'agentQuestions', key: 'mcp.enabled', value: null });
  });
});
