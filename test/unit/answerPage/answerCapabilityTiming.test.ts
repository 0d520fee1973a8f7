// Issue 41: an unknown capability handle was refused before any hashing, ~15 µs sooner than a known
// handle with a wrong secret, which tells a prober which handles exist. Both paths now hash the secret
// and compare it in constant time; counted through an injected hasher, not timed.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { AnswerCapabilities } from '../../../src/answerPage/answerCapabilities';

function counted() {
  const hashed: number[] = [];
  const hash = (data: Buffer) => {
    hashed.push(data.length);
    return createHash('sha256').update(data).digest();
  };
  return { hashed, capabilities: new AnswerCapabilities(() => 0, hash) };
}

/** `token` with its secret's last byte changed: the same handle, a wrong secret. */
const wrongSecret = (token: string) => {
  const bytes = Buffer.from(token, 'base64url');
  bytes[bytes.length - 1]! ^= 1;
  return bytes.toString('base64url');
};

/** `token` with its handle's first byte changed: a handle that was never issued, the same secret. */
const unknownHandle = (token: string) => {
  const bytes = Buffer.from(token, 'base64url');
  bytes[0]! ^= 1;
  return bytes.toString('base64url');
};

suite('answer page: capability checks', () => {
  test('prevents telling known handles from unknown ones: an unknown handle is hashed and compared like a known one with a wrong secret', () => {
    const { hashed, capabilities } = counted();
    const token = capabilities.issue('r1', 'shown', 60_000);
    const shown = () => 'shown';

    hashed.length = 0;
    assert.equal(capabilities.check(wrongSecret(token), shown), undefined);
    const known = [...hashed];

    hashed.length = 0;
    assert.equal(capabilities.check(unknownHandle(token), shown), undefined);
    const unknown = [...hashed];

    assert.deepEqual(known, [32], 'a known handle hashes its 32-byte secret once');
    assert.deepEqual(unknown, known, 'an unknown handle does the same hashing');
    // The real token still works.
    assert.deepEqual(capabilities.check(token, shown)?.requestId, 'r1');
  });
});
