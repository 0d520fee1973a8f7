// Capabilities for the answer page: one per link, for one request. A capability is 48 random bytes
// (base64url): a 16-byte handle to find it and a 32-byte secret compared in constant time (only its
// hash is kept). It is bound to the request and to the hash of what the page shows, expires, is
// consumed by the one answer, and is void once the request settles. Opening the page binds a nonce
// the answer must carry.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const HANDLE_BYTES = 16;
const SECRET_BYTES = 32;
/** Pages opened with one link that can still send: the newest few (two tabs, a reload). */
const NONCES_KEPT = 8;

interface Capability {
  requestId: string;
  secretHash: Buffer;
  shownHash: string;
  expiresAt: number;
  /** Nonces of the pages opened with it, each with the hash of what that page showed. */
  nonces: Map<string, string>;
}

export interface ValidCapability {
  handle: string;
  requestId: string;
}

/** The secret's hash; tests pass a counting one. */
export type SecretHash = (secret: Buffer) => Buffer;
const sha256: SecretHash = (secret) => createHash('sha256').update(secret).digest();

export class AnswerCapabilities {
  private readonly byHandle = new Map<string, Capability>();
  /** What an unknown handle's secret is compared with: the hash of a secret never handed out. */
  private readonly dummyHash: Buffer;

  constructor(
    private readonly now: () => number,
    private readonly hash: SecretHash = sha256,
  ) {
    this.dummyHash = hash(randomBytes(SECRET_BYTES));
  }

  issue(requestId: string, shownHash: string, ttlMs: number): string {
    this.sweep();
    const handle = randomBytes(HANDLE_BYTES);
    const secret = randomBytes(SECRET_BYTES);
    this.byHandle.set(handle.toString('hex'), { requestId, secretHash: this.hash(secret), shownHash, expiresAt: this.now() + ttlMs, nonces: new Map() });
    return Buffer.concat([handle, secret]).toString('base64url');
  }

  /**
   * The capability if `token` is one, unexpired and unconsumed, and what its request shows now
   * hashes as it did when the link was made; undefined otherwise, whatever the reason.
   */
  check(token: unknown, shownHashNow: (requestId: string) => string | undefined): ValidCapability | undefined {
    if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{64}$/.test(token)) return undefined;
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length !== HANDLE_BYTES + SECRET_BYTES) return undefined;
    const handle = bytes.subarray(0, HANDLE_BYTES).toString('hex');
    const capability = this.byHandle.get(handle);
    // An unknown handle is hashed and compared too (against a dummy), so no timing tells it from a known one.
    const secretMatches = timingSafeEqual(this.hash(bytes.subarray(HANDLE_BYTES)), capability?.secretHash ?? this.dummyHash);
    if (!capability || !secretMatches) return undefined;
    if (this.now() >= capability.expiresAt) {
      this.byHandle.delete(handle);
      return undefined;
    }
    const shown = shownHashNow(capability.requestId);
    if (shown === undefined || !equalText(shown, capability.shownHash)) return undefined;
    return { handle, requestId: capability.requestId };
  }

  /** Opening the page: a new nonce its answer must carry. */
  bindNonce(valid: ValidCapability): string {
    const capability = this.byHandle.get(valid.handle)!;
    const nonce = randomBytes(16).toString('base64url');
    capability.nonces.set(nonce, capability.shownHash);
    if (capability.nonces.size > NONCES_KEPT) capability.nonces.delete(capability.nonces.keys().next().value!);
    return nonce;
  }

  /** Whether `nonce` was bound by a page opened with this capability, showing what it shows now. */
  nonceMatches(valid: ValidCapability, nonce: unknown): boolean {
    const capability = this.byHandle.get(valid.handle);
    if (!capability || typeof nonce !== 'string' || nonce.length > 64) return false;
    let found = false;
    // Every kept nonce compared, in constant time each.
    for (const [kept, shownHash] of capability.nonces) found = (equalText(kept, nonce) && equalText(shownHash, capability.shownHash)) || found;
    return found;
  }

  /** The one answer was taken: this link, and every other for the same request, is spent. */
  consume(valid: ValidCapability): void {
    this.voidRequest(valid.requestId);
  }

  voidRequest(requestId: string): void {
    for (const [handle, capability] of this.byHandle) if (capability.requestId === requestId) this.byHandle.delete(handle);
  }

  clear(): void {
    this.byHandle.clear();
  }

  get size(): number {
    return this.byHandle.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [handle, capability] of this.byHandle) if (now >= capability.expiresAt) this.byHandle.delete(handle);
  }
}

/** Constant time for equal lengths; a length differs only between a kept value and a forged one. */
function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
