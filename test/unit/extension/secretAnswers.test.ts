import * as assert from 'node:assert/strict';
import { PanelToHostSchema } from '../../../src/broker/contract/protocol';
import type { QuestionRequest } from '../../../src/broker/contract/schemas';
import { resolveSecretAnswers } from '../../../src/extension/secretAnswers';
import type { SecretVault } from '../../../src/extension/secretVault';
import { CREDENTIAL_NAMES, NOT_CREDENTIAL_NAMES } from '../helpers/envVarNames';

/** An in-memory vault with SecretVault's shape (the real one wraps VS Code's SecretStorage). */
function fakeVault(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  const scopes = new Map<string, string>();
  const store = async (n: string, v: string, scope = 'workspace') => void (values.set(n, v), scopes.set(n, scope));
  return { values, scopes, vault: { has: (n: string) => values.has(n), get: async (n: string) => values.get(n), store } as unknown as SecretVault };
}

const request = (returnValue = false): QuestionRequest => ({
  id: 'r1',
  kind: 'questions',
  source: { type: 'tool', label: 'Chat tool' },
  createdAt: 1,
  questions: [
    { id: 'key', header: 'Key', question: '?', kind: 'secret', options: [], allowOther: false, envVar: 'API_KEY', ...(returnValue ? { returnValue } : {}) },
    { id: 'db', header: 'Db', question: '?', kind: 'single', options: [{ label: 'A' }, { label: 'B' }], allowOther: true },
  ],
});

/** A request with one secret question stored in `envVar`. */
const secretIn = (envVar: string): QuestionRequest => ({
  id: 'r1',
  kind: 'questions',
  source: { type: 'mcp', label: 'Claude Code' },
  createdAt: 1,
  questions: [{ id: 'key', header: 'Key', question: '?', kind: 'secret', options: [], allowOther: false, envVar }],
});
const typedKey = { key: { selected: [], skipped: false } };

suite('secret answers', () => {
  test('a typed value is stored and only its handle is answered', async () => {
    const { values, vault } = fakeVault();
    const result = await resolveSecretAnswers(
      request(),
      { key: { selected: [], skipped: false }, db: { selected: ['A'], skipped: false } },
      { values: { key: 'sk-1' }, useStored: [] },
      vault,
    );
    assert.deepEqual(result, { answers: { key: { selected: [], skipped: false, secret: { stored: true, envVar: 'API_KEY' } }, db: { selected: ['A'], skipped: false } } });
    assert.equal(values.get('API_KEY'), 'sk-1');
  });

  test('"use the stored value" needs one; a claimed handle or value from the sender is dropped', async () => {
    const { vault } = fakeVault();
    const claimed = { key: { selected: [], skipped: false, secret: { stored: true as const, envVar: 'API_KEY' }, value: 'x' }, db: { selected: ['A'], skipped: false } };
    assert.deepEqual(await resolveSecretAnswers(request(), claimed, { values: {}, useStored: ['key'] }, vault), { problem: 'secret question "key" has no value' });
    const stored = fakeVault({ API_KEY: 'sk-old' });
    const result = await resolveSecretAnswers(request(), claimed, { values: {}, useStored: ['key'] }, stored.vault);
    assert.deepEqual(result, { answers: { key: { selected: [], skipped: false, secret: { stored: true, envVar: 'API_KEY' } }, db: { selected: ['A'], skipped: false } } });
  });

  test('returnValue hands the value back to a trusted caller only', async () => {
    const { vault } = fakeVault({ API_KEY: 'sk-old' });
    const result = await resolveSecretAnswers(
      request(true),
      { key: { selected: [], skipped: false }, db: { selected: ['B'], skipped: false } },
      { values: {}, useStored: ['key'] },
      vault,
    );
    assert.equal('answers' in result && result.answers.key!.value, 'sk-old');
  });

  test('a typed value is for this workspace unless the user marked it for all workspaces', async () => {
    const answers = { key: { selected: [], skipped: false }, db: { selected: ['A'], skipped: false } };
    const here = fakeVault();
    await resolveSecretAnswers(request(), answers, { values: { key: 'sk-1' }, useStored: [] }, here.vault);
    assert.equal(here.scopes.get('API_KEY'), 'workspace');
    const everywhere = fakeVault();
    await resolveSecretAnswers(request(), answers, { values: { key: 'sk-1' }, useStored: [], allWorkspaces: ['key'] }, everywhere.vault);
    assert.equal(everywhere.scopes.get('API_KEY'), 'all');
    assert.deepEqual(await resolveSecretAnswers(request(), answers, { values: { key: 'sk-1' }, useStored: [], allWorkspaces: ['db'] }, fakeVault().vault), {
      problem: 'question "db" is not a secret question',
    });
  });

  test('a value for a question that is not a secret is refused', async () => {
    const { vault } = fakeVault();
    assert.deepEqual(
      await resolveSecretAnswers(request(), { key: { selected: [], skipped: true }, db: { selected: ['A'], skipped: false } }, { values: { db: 'x' }, useStored: [] }, vault),
      { problem: 'question "db" is not a secret question' },
    );
  });

  test("the panel's reply names the secrets for all workspaces by question id; anything else there is dropped", () => {
    const reply = { type: 'reply', requestId: 'r1', answers: { key: { selected: [], skipped: false } }, secrets: { key: 'sk-1' } };
    assert.ok(PanelToHostSchema.safeParse({ ...reply, allWorkspaces: ['key'] }).success);
    for (const allWorkspaces of [true, 'key', [1], ['x'.repeat(101)], Array.from({ length: 51 }, (_, i) => `q${i}`)]) {
      assert.equal(PanelToHostSchema.safeParse({ ...reply, allWorkspaces }).success, false, JSON.stringify(allWorkspaces).slice(0, 40));
    }
  });

  test("prevents a secret from being set, without the user's confirmation, as a variable that is not a credential name: 42 names that change what programs run, load or trust are refused and nothing is stored", async () => {
    for (const name of NOT_CREDENTIAL_NAMES) {
      const { values, vault } = fakeVault();
      const result = await resolveSecretAnswers(secretIn(name), typedKey, { values: { key: 'typed-value' }, useStored: [] }, vault);
      assert.deepEqual(result, { problem: `secret question "key": $${name} is not a credential name and the user did not confirm it` }, name);
      assert.equal(values.size, 0, `${name}: nothing stored`);
    }
  });

  test('once the user confirms the name in the panel, the secret is stored in it; a credential name needs no confirmation', async () => {
    for (const name of NOT_CREDENTIAL_NAMES) {
      const { values, vault } = fakeVault();
      const result = await resolveSecretAnswers(secretIn(name), typedKey, { values: { key: 'typed-value' }, useStored: [], nameConfirmed: ['key'] }, vault);
      assert.deepEqual(result, { answers: { key: { selected: [], skipped: false, secret: { stored: true, envVar: name } } } }, name);
      assert.equal(values.get(name), 'typed-value');
    }
    for (const name of CREDENTIAL_NAMES) {
      const { values, vault } = fakeVault();
      assert.ok('answers' in (await resolveSecretAnswers(secretIn(name), typedKey, { values: { key: 'typed-value' }, useStored: [] }, vault)), name);
      assert.equal(values.get(name), 'typed-value');
    }
    // A confirmation names a secret question of this request, like every other list in the reply.
    assert.deepEqual(
      await resolveSecretAnswers(
        request(),
        { key: { selected: [], skipped: true }, db: { selected: ['A'], skipped: false } },
        { values: {}, useStored: [], nameConfirmed: ['db'] },
        fakeVault().vault,
      ),
      { problem: 'question "db" is not a secret question' },
    );
  });

  test("the panel's reply carries the confirmed names as question ids, bounded like the other lists", () => {
    const reply = { type: 'reply', requestId: 'r1', answers: { key: { selected: [], skipped: false } }, secrets: { key: 'v' } };
    assert.ok(PanelToHostSchema.safeParse({ ...reply, nameConfirmed: ['key'] }).success);
    for (const nameConfirmed of [true, 'key', [1], ['x'.repeat(101)], Array.from({ length: 51 }, (_, i) => `q${i}`)]) {
      assert.equal(PanelToHostSchema.safeParse({ ...reply, nameConfirmed }).success, false, JSON.stringify(nameConfirmed).slice(0, 40));
    }
  });
});
