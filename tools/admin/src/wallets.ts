import { SUBJECTS } from '@service/contracts';
import { operatorContext, operatorRequest } from './operator.js';

/** Sandbox: the organization's next payout leg fails retryably, to exercise payout retry and cancel. */
export function failNextPayout(natsUrl: string, orgId: string): Promise<{ orgId: string; armedAt: string }> {
  return operatorRequest(natsUrl, SUBJECTS.wallet.sandboxFailNextPayout, { ctx: operatorContext(orgId) });
}
