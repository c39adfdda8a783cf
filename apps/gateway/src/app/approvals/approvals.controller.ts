import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  ApprovalAuditListDto,
  ApprovalPolicyDto,
  ApprovalRequestDto,
  ApprovalRequestResponseDto,
  ApproverDeletedDto,
  ApproverDto,
  ApproverListDto,
  CreateApproverDto,
  NoQueryDto,
  PageQueryDto,
  PendingActivitiesDto,
  PutApprovalPolicyDto,
  type RequestContext,
  StampHeaderDto,
  SUBJECTS,
  VoteDto,
  VoteResponseDto,
} from '@service/contracts';
import type { ForwardedJson } from '@service/nats';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Operation } from '../docs/operation.js';
import { RequiredRoles } from '../docs/required-roles.js';
import { Ctx } from '../http/request-context.js';
import { UuidParam, ValidBody, ValidQuery } from '../http/validation.js';
import { ServiceRoutes } from '../services.js';

@ApiTags('approvals')
@ApiBearerAuth()
@Controller('v2/approvals')
export class ApprovalsController extends ServiceRoutes {

  @Post('approvers')
  @HttpCode(201)
  @Operation('createApprover', {
    summary: 'Register an approver key (owners and admins; a member gets 403 forbidden)',
    description: 'A compressed P-256 public key (66 hex characters, as Turnkey API keys and `@turnkey/api-key-stamper` use). Its stamped votes release pending activities. The same key twice: 409 `approver_duplicate_key`. Audited.',
  })
  @RequiredRoles(SUBJECTS.wallet.approversCreate)
  @ApiCreatedResponse({ type: ApproverDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 409] })
  createApprover(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto, @ValidBody(CreateApproverDto) body: CreateApproverDto): Promise<ForwardedJson<ApproverDto>> {
    return this.ask(SUBJECTS.wallet.approversCreate, ctx, body);
  }

  @Get('approvers')
  @Operation('listApprovers', { summary: "The organization's approvers, newest first (owners and admins)" })
  @RequiredRoles(SUBJECTS.wallet.approversList)
  @ApiOkResponse({ type: ApproverListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403] })
  listApprovers(@Ctx() ctx: RequestContext, @ValidQuery(PageQueryDto) query: PageQueryDto): Promise<ForwardedJson<ApproverListDto>> {
    return this.ask(SUBJECTS.wallet.approversList, ctx, query);
  }

  @Delete('approvers/:approverId')
  @Operation('deleteApprover', { summary: 'Remove an approver (owners and admins): its later stamps no longer count; votes already counted stay counted. Audited.' })
  @RequiredRoles(SUBJECTS.wallet.approversDelete)
  @ApiOkResponse({ type: ApproverDeletedDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
  deleteApprover(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto, @UuidParam('approverId') approverId: string): Promise<ForwardedJson<ApproverDeletedDto>> {
    return this.ask(SUBJECTS.wallet.approversDelete, ctx, { approverId });
  }

  @Get('policy')
  @Operation('getApprovalPolicy', { summary: 'The approval policy in force (owners and admins); `updatedAt` null while the environment default applies (sandbox: none)' })
  @RequiredRoles(SUBJECTS.wallet.approvalPolicyGet)
  @ApiOkResponse({ type: ApprovalPolicyDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403] })
  getPolicy(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto): Promise<ForwardedJson<ApprovalPolicyDto>> {
    return this.ask(SUBJECTS.wallet.approvalPolicyGet, ctx, {});
  }

  @Put('policy')
  @Operation('setApprovalPolicy', {
    summary: 'Set which withdrawals wait for customer approval and the quorum (owners and admins). Audited.',
    description: 'A policy other than `none` with fewer approvers than `quorum`: 400 `approval_quorum_unreachable`. `thresholdUsd` is required with (and only with) `above_threshold`.',
  })
  @RequiredRoles(SUBJECTS.wallet.approvalPolicyPut)
  @ApiOkResponse({ type: ApprovalPolicyDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403] })
  putPolicy(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto, @ValidBody(PutApprovalPolicyDto) body: PutApprovalPolicyDto): Promise<ForwardedJson<ApprovalPolicyDto>> {
    return this.ask(SUBJECTS.wallet.approvalPolicyPut, ctx, body);
  }

  @Get('audit')
  @Operation('listApprovalAudit', { summary: 'Changes to approvers and policy, newest first: who, when, before and after (owners and admins)' })
  @RequiredRoles(SUBJECTS.wallet.approvalAuditList)
  @ApiOkResponse({ type: ApprovalAuditListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403] })
  listAudit(@Ctx() ctx: RequestContext, @ValidQuery(PageQueryDto) query: PageQueryDto): Promise<ForwardedJson<ApprovalAuditListDto>> {
    return this.ask(SUBJECTS.wallet.approvalAuditList, ctx, query);
  }
}

/** The routes named after the Turnkey signing API, kept exactly for drop-in compatibility. */
@ApiTags('approvals')
@ApiBearerAuth()
@ApiExtraModels(StampHeaderDto)
@Controller('v2/turnkey')
export class TurnkeyController extends ServiceRoutes {

  @Get('activities/pending')
  @Operation('listPendingActivities', { summary: "The organization's activities waiting for approvers' votes (`{activities}`, not a page envelope, as the real API answers). Every role." })
  @RequiredRoles(SUBJECTS.wallet.turnkeyPending)
  @ApiOkResponse({ type: PendingActivitiesDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  pending(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto): Promise<ForwardedJson<PendingActivitiesDto>> {
    return this.ask(SUBJECTS.wallet.turnkeyPending, ctx, {});
  }

  @Post('activity-approval-request')
  @HttpCode(200)
  @Operation('createActivityApprovalRequest', {
    summary: 'The request an approver stamps to approve or reject an activity. Every role.',
    description: '`stampPayload` is the exact JSON text of `turnkeyRequest`: pass it to `ApiKeyStamper.stamp`. Unknown or another organization’s activity: 404 `activity_not_found`.',
  })
  @RequiredRoles(SUBJECTS.wallet.turnkeyApprovalRequest)
  @ApiOkResponse({ type: ApprovalRequestResponseDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  approvalRequest(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto, @ValidBody(ApprovalRequestDto) body: ApprovalRequestDto): Promise<ForwardedJson<ApprovalRequestResponseDto>> {
    return this.ask(SUBJECTS.wallet.turnkeyApprovalRequest, ctx, body);
  }

  @Post('activities/:activityId/vote')
  @HttpCode(200)
  @Operation('voteOnActivity', {
    summary: 'A stamped vote on a pending activity. Every role: the stamp is the authority.',
    description:
      'Counts only when the stamp verifies over turnkeyRequest (401 `invalid_stamp`), its key is a current approver (403 `approver_not_authorized`), ' +
      'the request names this activity, organization and action (403 `approval_request_mismatch`), `timestampMs` is within 5 minutes (401 `stale_stamp`), ' +
      'the deadline has not passed (409 `approval_expired`) and the approver has not voted on it (409 `approval_already_voted`); otherwise nothing is recorded. ' +
      'Quorum approvals release the leg; one reject cancels it. A vote after the outcome answers `alreadyTerminal`.',
  })
  @RequiredRoles(SUBJECTS.wallet.turnkeyVote)
  @ApiOkResponse({ type: VoteResponseDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404, 409] })
  vote(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('activityId') activityId: string,
    @ValidBody(VoteDto) body: VoteDto,
  ): Promise<ForwardedJson<VoteResponseDto>> {
    return this.ask(SUBJECTS.wallet.turnkeyVote, ctx, { activityId, ...body });
  }
}
