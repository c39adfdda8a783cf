import { createHash } from 'node:crypto';
import type { ApprovalAction, TurnkeyRequestDto } from '@service/contracts';
import { ServiceError } from '@service/errors';

/** How far a stamped request's `timestampMs` may be from now. */
export const STAMP_WINDOW_MS = 5 * 60_000;

const TYPE_OF: Record<ApprovalAction, TurnkeyRequestDto['type']> = {
  approve: 'ACTIVITY_TYPE_APPROVE_ACTIVITY',
  reject: 'ACTIVITY_TYPE_REJECT_ACTIVITY',
};

/** The body a Turnkey client sends to approve or reject the activity with this fingerprint. */
export function turnkeyRequestOf(input: {
  action: ApprovalAction;
  organizationId: string;
  fingerprint: string;
  now: Date;
}): TurnkeyRequestDto {
  return {
    type: TYPE_OF[input.action],
    timestampMs: String(input.now.getTime()),
    organizationId: input.organizationId,
    parameters: { fingerprint: input.fingerprint },
  };
}

/**
 * The canonical JSON text of a request, the bytes an approver signs: its four fields in this
 * order and nothing else, so the server rebuilds exactly the `stampPayload` it issued.
 */
export function canonicalPayload(request: TurnkeyRequestDto): string {
  const { type, timestampMs, organizationId, parameters } = request;
  return JSON.stringify({ type, timestampMs, organizationId, parameters: { fingerprint: parameters.fingerprint } });
}

/** The request must name this action, organization and activity, and be fresh. */
export function checkRequest(
  request: TurnkeyRequestDto,
  expected: { action: ApprovalAction; organizationId: string; fingerprint: string; now: Date },
): void {
  if (request.type !== TYPE_OF[expected.action]) {
    throw new ServiceError(
      'approval_request_mismatch',
      `action ${expected.action} needs a turnkeyRequest of type ${TYPE_OF[expected.action]}.`,
    );
  }
  if (request.organizationId !== expected.organizationId || request.parameters.fingerprint !== expected.fingerprint) {
    throw new ServiceError('approval_request_mismatch', 'The stamped request names another activity or organization.');
  }
  if (Math.abs(expected.now.getTime() - Number(request.timestampMs)) > STAMP_WINDOW_MS) {
    throw new ServiceError(
      'stale_stamp',
      'timestampMs is more than 5 minutes from now; request a fresh approval request and stamp it again.',
    );
  }
}

/** The fingerprint of an activity: hex SHA-256 of what it approves, so a stamp for one activity cannot count for another. */
export function activityFingerprint(input: { activityId: string; organizationId: string; kind: string; subject: object }): string {
  return createHash('sha256')
    .update(JSON.stringify([input.activityId, input.organizationId, input.kind, input.subject]))
    .digest('hex');
}
