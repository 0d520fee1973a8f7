// The Queue as the held-out fail-closed tests read it through the test driver: a request still
// waiting for a marker's command, how a request was settled, and rejecting what a test left behind.
import type { Driver } from '../ui/workbench';

export interface Pending {
  id: string;
  createdAt: number;
}

export interface Settled {
  requestId: string;
  status: string;
  decision?: string;
  decidedBy?: { by: string; part?: string; where?: string; at?: string };
}

/** The pending request whose command holds `marker`, or undefined once it left the Queue. */
export async function pendingFor(driver: Driver, marker: string): Promise<Pending | undefined> {
  return (await driver<Pending[]>('list')).find((r) => JSON.stringify(r).includes(marker));
}

/** How the request `requestId` was settled, from the decision history. */
export async function settledAs(driver: Driver, requestId: string): Promise<Settled | undefined> {
  return (await driver<Settled[]>('history')).find((e) => e.requestId === requestId);
}

/** Rejects every request still pending, so the next test starts with an empty Queue. */
export async function rejectPending(driver: Driver): Promise<void> {
  for (const pending of await driver<Pending[]>('list')) await driver('reject', { requestId: pending.id });
}
