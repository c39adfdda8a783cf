import { SUBJECTS } from '@service/contracts';
import { type OperatorNats, operatorContext, operatorRequest } from './operator.js';

/** Sandbox: the organization's next payout leg fails retryably, to exercise payout retry and cancel. */
export function failNextPayout(nats: string | OperatorNats, orgId: string): Promise<{ orgId: string; armedAt: string }> {
  return operatorRequest(nats, SUBJECTS.wallet.sandboxFailNextPayout, { ctx: operatorContext(orgId) });
}
