import { ApprovalChangeDto, type GovernedReply } from '@service/contracts';
import type { FastifyReply } from 'fastify';

/** The OpenAPI answer of a governed route whose change waits for the organization's approvers. */
export const PENDING_CHANGE = {
  type: ApprovalChangeDto,
  description:
    'The organization has approvers and the change could weaken its protection: it waits as a pending change (`status: pending`) until its activity ' +
    '(`turnkeyActivityId`, listed by `GET /v2/turnkey/activities/pending`) gets the quorum’s stamped votes; announced by `portfolio_wallet.approval.status_changed`.',
} as const;

/**
 * Sends a governed route's answer: the route's own status and body when the change applied, 202
 * and the pending change when it waits for the approvers.
 */
export async function sendGoverned<T>(reply: FastifyReply, appliedStatus: number, answer: Promise<GovernedReply<T>>): Promise<void> {
  const result = await answer;
  if (result.pending) await reply.status(202).send(result.pending);
  else await reply.status(appliedStatus).send(result.applied);
}
