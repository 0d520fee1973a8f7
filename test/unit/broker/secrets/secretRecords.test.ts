import * as assert from 'node:assert/strict';
import { SecretRecords } from '../../../../src/broker/secrets/secretRecords';
import { MemoryStore } from '../../helpers/fakes';

suite('stored secret records', () => {
  test('prevents a secret given in one workspace from applying in another, unless it is for all workspaces', async () => {
    const globalState = new MemoryStore();
    const first = new SecretRecords(globalState, 'ws-a');
    const second = new SecretRecords(globalState, 'ws-b');
    await first.add(first.recordFor('API_KEY', 'workspace'));
    await first.add(first.recordFor('SHARED_TOKEN', 'all'));
    assert.deepEqual(first.here(), [
      { name: 'API_KEY', scope: 'workspace', workspace: 'ws-a' },
      { name: 'SHARED_TOKEN', scope: 'all' },
    ]);
    assert.deepEqual(second.here(), [{ name: 'SHARED_TOKEN', scope: 'all' }]);
    assert.equal(second.find('API_KEY'), undefined);
  });

  test('two workspaces hold the same name under their own SecretStorage keys', async () => {
    const globalState = new MemoryStore();
    const first = new SecretRecords(globalState, 'ws-a');
    const second = new SecretRecords(globalState, 'ws-b');
    await first.add(first.recordFor('API_KEY', 'workspace'));
    await second.add(second.recordFor('API_KEY', 'workspace'));
    const keys = [first.find('API_KEY')!, second.find('API_KEY')!].map(SecretRecords.storageKey);
    assert.deepEqual(keys, ['agentQuestions.secret.ws-a.API_KEY', 'agentQuestions.secret.ws-b.API_KEY']);
    await first.remove(first.find('API_KEY')!);
    assert.equal(first.find('API_KEY'), undefined);
    assert.deepEqual(second.find('API_KEY'), { name: 'API_KEY', scope: 'workspace', workspace: 'ws-b' });
  });

  test("this workspace's own value wins over an all-workspaces one of the same name", async () => {
    const records = new SecretRecords(new MemoryStore(), 'ws-a');
    await records.add(records.recordFor('API_KEY', 'all'));
    await records.add(records.recordFor('API_KEY', 'workspace'));
    assert.deepEqual(records.here(), [{ name: 'API_KEY', scope: 'workspace', workspace: 'ws-a' }]);
    assert.equal(records.allNamed('API_KEY').length, 2);
  });

  test('names stored before scopes existed stay for all workspaces under their old key, and are migrated on the next write', async () => {
    const globalState = new MemoryStore();
    await globalState.update('agentQuestions.storedSecretNames', ['OLD_KEY', 42]);
    const records = new SecretRecords(globalState, 'ws-a');
    assert.deepEqual(records.here(), [{ name: 'OLD_KEY', scope: 'all' }]);
    assert.equal(SecretRecords.storageKey(records.find('OLD_KEY')!), 'agentQuestions.secret.OLD_KEY');
    await records.add(records.recordFor('NEW_KEY', 'workspace'));
    assert.deepEqual(new SecretRecords(globalState, 'ws-b').here(), [{ name: 'OLD_KEY', scope: 'all' }]);
    assert.equal(globalState.get('agentQuestions.storedSecretNames'), undefined);
  });

  test('malformed records in state are ignored, never trusted', () => {
    const globalState = new MemoryStore();
    globalState.data.set('agentQuestions.storedSecrets', [null, 'X', { name: 'A', scope: 'workspace' }, { name: 'B', scope: 'everywhere' }, { name: 'C', scope: 'all' }]);
    assert.deepEqual(new SecretRecords(globalState, 'ws-a').here(), [{ name: 'C', scope: 'all' }]);
  });
});
