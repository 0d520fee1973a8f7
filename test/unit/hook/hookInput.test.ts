// How the hook commands read their input and write their answer (src/hook/hookProcess.ts):
// synchronously to the end, on as a stream when stdin would block, and nothing at all past the cap;
// the answer written synchronously, so a hook that needs no endpoint never loads node:net.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStdin } from '../../../src/hook/hookProcess';
import { ROOT } from '../helpers/repoRoot';
import { local, PROJECT } from '../helpers/agentHookInputs';

const HOOK_SCRIPT = join(ROOT, 'dist', 'approvalHook.js');
const INPUT = JSON.stringify({ hook_event_name: 'PermissionRequest', cwd: '/tmp', tool_name: 'Bash', tool_input: { command: 'git status', description: 'é and ✓' } });

/** The shipped hook run with no endpoint in its environment, fed by `feed`: its stderr says whether it read a whole input. */
function hookWith(feed: (stdin: NodeJS.WritableStream) => void): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [HOOK_SCRIPT, 'claude-code'], { env: { PATH: process.env.PATH }, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  feed(child.stdin);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

suite('The hook reads its input', () => {
  test('written in pieces, with a pause between them: the whole input, multi-byte characters split across pieces included', async () => {
    const bytes = Buffer.from(INPUT);
    const split = bytes.indexOf(Buffer.from('✓')) + 1;
    const { code, stderr } = await hookWith((stdin) => {
      stdin.write(bytes.subarray(0, split));
      setTimeout(() => stdin.end(bytes.subarray(split)), 200);
    });
    assert.equal(code, 1);
    assert.match(stderr, /AGENT_QUESTIONS_MCP_URL or \$AGENT_QUESTIONS_MCP_TOKEN is not set/);
  });

  test('prevents a hook input over 8 MB from being read and sent on: it is no input, and no decision', async () => {
    const { code, stderr } = await hookWith((stdin) => stdin.end(INPUT.replace('git status', `git status ${'x'.repeat(9 * 1024 * 1024)}`)));
    assert.equal(code, 1);
    assert.match(stderr, /the hook input on stdin is not JSON; Claude Code asks you itself/);
  });

  test('prevents a character device on stdin (/dev/zero, which never ends) from holding the hook: no input', async () => {
    const zero = openSync('/dev/zero', constants.O_RDONLY);
    try {
      assert.equal(await readStdin(zero), '');
    } finally {
      closeSync(zero);
    }
  });

  test("a read-only tool in VS Code's agent: the hook prints its allow through a pipe without loading node:net or listening for signals", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'aq-hook-modules-'));
    // Loaded first: at exit, writes the modules Node loaded to a file.
    const preload = join(folder, 'modules.js');
    writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(join(folder, 'loaded'))}, process.moduleLoadList.join('\\n')));`);
    try {
      const child = spawn(process.execPath, ['--require', preload, join(ROOT, 'dist', 'vscodeAgentHook.js'), '86400'], {
        env: { PATH: process.env.PATH, HOME: folder, XDG_CONFIG_HOME: join(folder, 'config') },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stdin.end(JSON.stringify(local('read_file', { filePath: `${PROJECT}/src/index.ts`, startLine: 1, endLine: 40 })));
      await new Promise((resolve) => child.on('close', resolve));
      assert.equal(stdout, '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\n');
      const loaded = readFileSync(join(folder, 'loaded'), 'utf8').split('\n');
      assert.ok(loaded.includes('NativeModule fs'), 'the list was written');
      assert.deepEqual(
        loaded.filter((name) => /^(NativeModule (net|tty)|Internal Binding signal_wrap)$/.test(name)),
        [],
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('from a non-blocking stdin, which would fail a synchronous read: read on as a stream, keeping what came before', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'aq-hook-input-'));
    const fifo = join(folder, 'stdin');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    try {
      writeSync(writer, INPUT.slice(0, 20));
      // The first read takes those 20 bytes, the next would block (EAGAIN): the rest comes to the stream.
      const read = readStdin(reader);
      writeSync(writer, INPUT.slice(20));
      closeSync(writer);
      assert.equal(await read, INPUT);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
