import { Controller, createParamDecorator, Delete, type ExecutionContext, Get, HttpCode, Post, Put, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiExtraModels, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
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
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Operation } from '../docs/operation.js';
import { RequiredRoles } from '../docs/required-roles.js';
import { Ctx } from '../http/request-context.js';
import { UuidParam, ValidBody, ValidQuery } from '../http/validation.js';
import { ServiceRoutes } from '../services.js';
import { PENDING_CHANGE, sendGoverned } from './governed.js';

/** The request's `X-Stamp` header (null when absent) and the exact body text it stamps. */
const SignedBody = createParamDecorator((_: unknown, host: ExecutionContext): { stamp: string | null; signedBody: string } => {
  const request = host.switchToHttp().getRequest<FastifyRequest>();
  const header = request.headers['x-stamp'];
  return { stamp: typeof header === 'string' && header !== '' ? header : null, signedBody: request.signedBody ?? '' };
});

@ApiTags('approvals')
@ApiBearerAuth()
@Controller('v2/approvals')
export class ApprovalsController extends ServiceRoutes {
  @Post('approvers')
  @HttpCode(201)
  @Operation('createApprover', {
    summary: 'Register an approver key, proving possession of it (owners and admins; a member gets 403 forbidden)',
    description:
      'A compressed P-256 public key (66 hex characters, as Turnkey API keys and `@turnkey/api-key-stamper` use). Its stamped votes release pending activities. ' +
      'The `X-Stamp` header is the new key’s stamp (`stamper.stamp(body)`) over the exact request body, whose `timestampMs` is within 5 minutes: missing, 400 `approver_stamp_required`; ' +
      'by another key, not over this body or stale, 400 `invalid_approver_stamp`. The organization’s first approver is registered at once (201); once it has approvers, ' +
      'the key waits for their quorum as a pending change (202, activity `approver_change`). The same key twice: 409 `approver_duplicate_key`. Audited.',
  })
  @RequiredRoles(SUBJECTS.wallet.approversCreate)
  @ApiHeader({
    name: 'X-Stamp',
    required: true,
    description:
      'The new key’s stamp over the exact request body: base64url JSON `{publicKey, scheme: "SIGNATURE_SCHEME_TK_API_P256", signature}`.',
  })
  @ApiCreatedResponse({ type: ApproverDto, description: 'The organization had no approvers: registered.' })
  @ApiAcceptedResponse(PENDING_CHANGE)
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 409] })
  async createApprover(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @ValidBody(CreateApproverDto) body: CreateApproverDto,
    @SignedBody() signed: { stamp: string | null; signedBody: string },
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const input = { label: body.label, publicKey: body.publicKey, timestampMs: body.timestampMs, ...signed };
    await sendGoverned(reply, 201, this.services.request(SUBJECTS.wallet.approversCreate, { ctx, ...input }));
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
  @Operation('deleteApprover', {
    summary:
      'Remove an approver (owners and admins) once the approvers’ quorum agrees: its later stamps no longer count; votes already counted stay counted. Audited.',
    description: 'Answers 202 with the pending change (activity `approver_change`); the approver goes when quorum approves it.',
  })
  @RequiredRoles(SUBJECTS.wallet.approversDelete)
  @ApiOkResponse({
    type: ApproverDeletedDto,
    description: 'Removed (not answered while the organization has approvers: the approver to remove is one).',
  })
  @ApiAcceptedResponse(PENDING_CHANGE)
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
  async deleteApprover(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('approverId') approverId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendGoverned(reply, 200, this.services.request(SUBJECTS.wallet.approversDelete, { ctx, approverId }));
  }

  @Get('policy')
  @Operation('getApprovalPolicy', {
    summary: 'The approval policy in force (owners and admins); `updatedAt` null while the environment default applies (sandbox: none)',
  })
  @RequiredRoles(SUBJECTS.wallet.approvalPolicyGet)
  @ApiOkResponse({ type: ApprovalPolicyDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403] })
  getPolicy(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto): Promise<ForwardedJson<ApprovalPolicyDto>> {
    return this.ask(SUBJECTS.wallet.approvalPolicyGet, ctx, {});
  }

  @Put('policy')
  @Operation('setApprovalPolicy', {
    summary: 'Set which withdrawals wait for customer approval and the quorum (owners and admins). Audited.',
    description:
      'A policy other than `none` with fewer approvers than `quorum`: 400 `approval_quorum_unreachable`. `thresholdUsd` is required with (and only with) `above_threshold`. ' +
      'Applied at once (200) when the organization has no approvers or the policy is not weaker (a stricter mode, a lower threshold, a higher quorum); ' +
      'a weaker one waits for the approvers’ quorum as a pending change (202, activity `policy_change`) and the policy in force stays until then.',
  })
  @RequiredRoles(SUBJECTS.wallet.approvalPolicyPut)
  @ApiOkResponse({ type: ApprovalPolicyDto, description: 'Applied.' })
  @ApiAcceptedResponse(PENDING_CHANGE)
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403] })
  async putPolicy(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @ValidBody(PutApprovalPolicyDto) body: PutApprovalPolicyDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const input = { withdrawals: body.withdrawals, thresholdUsd: body.thresholdUsd, quorum: body.quorum };
    await sendGoverned(reply, 200, this.services.request(SUBJECTS.wallet.approvalPolicyPut, { ctx, ...input }));
  }

  @Get('audit')
  @Operation('listApprovalAudit', {
    summary:
      'Changes to approvers, policy and address book, newest first: who, when, before and after, and for a change the approvers released its activity and their keys (owners and admins)',
  })
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
  @Operation('listPendingActivities', {
    summary:
      "The organization's activities waiting for approvers' votes (`{activities}`, not a page envelope, as the real API answers). Every role.",
  })
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
    description:
      '`stampPayload` is the exact JSON text of `turnkeyRequest`: pass it to `ApiKeyStamper.stamp`. Unknown or another organization’s activity: 404 `activity_not_found`.',
  })
  @RequiredRoles(SUBJECTS.wallet.turnkeyApprovalRequest)
  @ApiOkResponse({ type: ApprovalRequestResponseDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  approvalRequest(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @ValidBody(ApprovalRequestDto) body: ApprovalRequestDto,
  ): Promise<ForwardedJson<ApprovalRequestResponseDto>> {
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
