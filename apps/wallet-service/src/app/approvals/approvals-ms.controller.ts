import { Controller, Inject } from '@nestjs/common';
import {
  type ApprovalAuditListDto,
  type ApprovalPolicyDto,
  type ApprovalRequestResponseDto,
  type ApproverDeletedDto,
  type ApproverDto,
  type ApproverListDto,
  type PendingActivitiesDto,
  type GovernedReply,
  SUBJECTS,
  type VoteResponseDto,
  type WireRequestOf,
} from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { ApprovalsService } from './approvals.service.js';
import { TurnkeyService } from './turnkey.service.js';

@Controller()
export class ApprovalsMsController {
  constructor(
    @Inject(ApprovalsService) private readonly approvals: ApprovalsService,
    @Inject(TurnkeyService) private readonly turnkey: TurnkeyService,
  ) {}

  @Handles(SUBJECTS.wallet.approversCreate)
  createApprover({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.approversCreate>): Promise<GovernedReply<ApproverDto>> {
    return this.approvals.createApprover(ctx, input);
  }

  @Handles(SUBJECTS.wallet.approversList)
  listApprovers({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.approversList>): Promise<ApproverListDto> {
    return this.approvals.listApprovers(ctx, input);
  }

  @Handles(SUBJECTS.wallet.approversDelete)
  deleteApprover({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.approversDelete>): Promise<GovernedReply<ApproverDeletedDto>> {
    return this.approvals.deleteApprover(ctx, input);
  }

  @Handles(SUBJECTS.wallet.approvalPolicyGet)
  getPolicy({ ctx }: WireRequestOf<typeof SUBJECTS.wallet.approvalPolicyGet>): Promise<ApprovalPolicyDto> {
    return this.approvals.getPolicy(ctx);
  }

  @Handles(SUBJECTS.wallet.approvalPolicyPut)
  putPolicy({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.approvalPolicyPut>): Promise<GovernedReply<ApprovalPolicyDto>> {
    return this.approvals.putPolicy(ctx, input);
  }

  @Handles(SUBJECTS.wallet.approvalAuditList)
  listAudit({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.approvalAuditList>): Promise<ApprovalAuditListDto> {
    return this.approvals.listAudit(ctx, input);
  }

  @Handles(SUBJECTS.wallet.turnkeyPending)
  pending({ ctx }: WireRequestOf<typeof SUBJECTS.wallet.turnkeyPending>): Promise<PendingActivitiesDto> {
    return this.turnkey.pending(ctx);
  }

  @Handles(SUBJECTS.wallet.turnkeyApprovalRequest)
  approvalRequest({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.turnkeyApprovalRequest>): Promise<ApprovalRequestResponseDto> {
    return this.turnkey.approvalRequest(ctx, input);
  }

  @Handles(SUBJECTS.wallet.turnkeyVote)
  vote({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.turnkeyVote>): Promise<VoteResponseDto> {
    return this.turnkey.vote(ctx, input);
  }
}
