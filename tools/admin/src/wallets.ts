import { SUBJECTS } from '@service/contracts';
import { type OperatorNats, operatorContext, operatorRequest } from './operator.js';

/** Sandbox: the organization's next payout leg fails retryably, to exercise payout retry and cancel. */
/** Sandbox with WALLET_CLOCK_CONTROL: stops the clock of the wallet-service replica that answers at `at` (null: runs again). */
export function pinClock(nats: string | OperatorNats, at: string | null): Promise<{ pinnedAt: string | null }> {
  return operatorRequest(nats, SUBJECTS.wallet.sandboxPinClock, { ctx: operatorContext('operator'), at });
}

export function failNextPayout(nats: string | OperatorNats, orgId: string): Promise<{ orgId: string; armedAt: string }> {
  return operatorRequest(nats, SUBJECTS.wallet.sandboxFailNextPayout, { ctx: operatorContext(orgId) });
}
