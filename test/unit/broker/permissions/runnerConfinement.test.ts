// Issue 40, item 6: a rule for a tool that runs the workspace's code (shell/runners.ts) covers a call
// the agent runs in its own sandbox, never one that leaves it; a workspace write rule held with a
// runner rule is called out where the second is offered.
import * as assert from 'node:assert/strict';
import type { NewPermissionRequest } from '../../../../src/broker/broker';
import { ApproveInputSchema, permissionRequestFor } from '../../../../src/broker/permissions/approveTool';
import { memoryStore, RememberedPermissions } from '../../../../src/broker/permissions/rememberedPermissions';
import { writeAndRun } from '../../../../src/broker/permissions/decidePermission';
import { loadTestChecker } from '../../helpers/fakes';

const WS = '/home/dev/project';

/** The request the endpoint builds from an approve call as the hook sends it (with or without `confinement`). */
function request(tool: string, input: Record<string, unknown>, confinement?: string): NewPermissionRequest {
  const call = ApproveInputSchema.parse({ tool_name: tool, input, ...(confinement ? { confinement } : {}) });
  const built = permissionRequestFor(call, { type: 'mcp', label: 'Codex' }, [WS]);
  assert.ok(!('refused' in built));
  return built;
}

const fresh = () =>
  new RememberedPermissions({ session: memoryStore(), workspace: memoryStore(), user: memoryStore() }, { loadChecker: loadTestChecker, workspaceFolders: () => [WS] });

/** Remembers the rule offered with `label` for `command`, as "Always allow" does. */
async function grant(permissions: RememberedPermissions, command: string, label: string): Promise<void> {
  const offered = (await permissions.decide(request('Bash', { command }))).options;
  const option = offered.find((o) => o.label === label);
  assert.ok(option, `«${label}» is offered for ${command} (offered: ${offered.map((o) => o.label).join(', ')})`);
  await permissions.remember(option, 'Codex');
}

// [command, the rule offered for it, a later command the rule covers]
const RUNNERS: Array<[string, string, string]> = [
  ['npm test', 'npm test …', 'npm test -- --grep x'],
  ['make test', 'make test …', 'make test -k'],
  ['pytest tests', 'pytest …', 'pytest -x tests'],
  ['cargo test', 'cargo test …', 'cargo test --release'],
  ['go test ./...', 'go test …', 'go test -v ./...'],
  ['tsc --noEmit', 'tsc …', 'tsc --noEmit -p tsconfig.json'],
  ['eslint src', 'eslint …', 'eslint --max-warnings 0 src'],
  ['git status', 'git status …', 'git status --short'],
];

suite("Runner rules are confined to the agent's sandbox (issue 40, item 6)", () => {
  test('prevents a runner rule from covering a call that leaves the sandbox', async () => {
    const allowed: string[] = [];
    for (const [command, label, later] of RUNNERS) {
      const permissions = fresh();
      await grant(permissions, command, label);
      const outcome = await permissions.decide(request('Bash', { command: later }, 'unsandboxed'));
      if (outcome.decision === 'allow') allowed.push(later);
      else assert.match(outcome.reason ?? '', /runs this workspace's code .*only inside the agent's sandbox/);
    }
    assert.deepEqual(allowed, [], `${allowed.length} of ${RUNNERS.length} allowed outside the sandbox`);
  });

  test('prevents a runner rule from covering a runner behind a wrapper or in a chain, outside the sandbox', async () => {
    const permissions = fresh();
    await grant(permissions, 'npm test', 'npm test …');
    await grant(permissions, 'git log', 'git log …');
    for (const later of ['git log -1 && npm test', 'npm test -- --grep x; git log -1'])
      assert.equal((await permissions.decide(request('Bash', { command: later }, 'unsandboxed'))).decision, 'ask', later);
  });

  test('a runner rule still covers a sandboxed call, and a call no hook placed (not confined)', async () => {
    for (const [command, label, later] of RUNNERS) {
      const permissions = fresh();
      await grant(permissions, command, label);
      assert.equal((await permissions.decide(request('Bash', { command: later }, 'sandboxed'))).decision, 'allow', `${later}, sandboxed`);
      assert.equal((await permissions.decide(request('Bash', { command: later }))).decision, 'allow', `${later}, confinement unknown`);
    }
  });

  test('outside the sandbox no runner rule is offered (it would never cover such a call); where no sandbox is known, the offer says "not confined"', async () => {
    const outside = (await fresh().decide(request('Bash', { command: 'npm test' }, 'unsandboxed'))).options.map((o) => o.label);
    assert.ok(!outside.includes('npm test …') && !outside.includes('npm test'), outside.join(', '));
    const unknown = (await fresh().decide(request('Bash', { command: 'npm test' }))).options.find((o) => o.label === 'npm test …');
    assert.match(unknown?.description ?? '', /Not confined/);
    const sandboxed = (await fresh().decide(request('Bash', { command: 'npm test' }, 'sandboxed'))).options.find((o) => o.label === 'npm test …');
    assert.doesNotMatch(sandboxed?.description ?? 'missing', /Not confined/);
  });

  test("a runner's card says it is not confined unless the agent runs the call in its sandbox (OpenCode, a call leaving the sandbox, an asker that says nothing)", async () => {
    const card = async (command: string, confinement?: 'sandboxed' | 'unsandboxed') => {
      const outcome = await fresh().decide(request('Bash', { command }, confinement));
      return outcome.decision === 'unavailable' ? '' : (outcome.summary ?? '');
    };
    assert.match(await card('npm test', 'unsandboxed'), /Not confined: /);
    assert.match(await card('npm test'), /Not confined: /);
    assert.doesNotMatch(await card('npm test', 'sandboxed'), /Not confined/);
    assert.doesNotMatch(await card('ls src', 'unsandboxed'), /Not confined/, 'ls runs no workspace code');
  });

  test('a rule for a tool that runs no workspace code covers a call outside the sandbox as before', async () => {
    const permissions = fresh();
    await grant(permissions, 'git log', 'git log …');
    assert.equal((await permissions.decide(request('Bash', { command: 'git log --oneline -n 5' }, 'unsandboxed'))).decision, 'allow');
  });

  test('the prompt that would create the second of a workspace write rule and a runner rule says what they do together', async () => {
    const permissions = fresh();
    await grant(permissions, 'npm test', 'npm test …');
    const write = (await permissions.decide(request('Write', { file_path: `${WS}/src/a.ts`, content: 'x' }))).options.find((o) => o.label === 'Write in the workspace');
    assert.ok(write);
    assert.match(write.description, /lets the agent run any code it writes, as you/);
    await permissions.remember(write, 'Codex');
    assert.equal(writeAndRun(permissions.list()), true);
    // Sandboxed, the runner cannot reach beyond the workspace: the offer says nothing more.
    const sandboxed = (await fresh().decide(request('Bash', { command: 'npm test' }, 'sandboxed'))).options;
    assert.ok(sandboxed.every((o) => !/run any code it writes/.test(o.description)));
  });
});
