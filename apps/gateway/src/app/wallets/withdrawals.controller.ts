import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  CancelWithdrawalDto,
  CreateWithdrawalDto,
  ErrorBodyDto,
  NoQueryDto,
  PayoutLegDto,
  PayoutPathDto,
  PayoutRequestDto,
  type RequestContext,
  SUBJECTS,
  WithdrawalDto,
  WithdrawalListDto,
  WithdrawalListQueryDto,
  WithdrawalPreviewDto,
  WithdrawalPreviewResponseDto,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { ForwardedJson } from '@service/nats';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Operation } from '../docs/operation.js';
import { RequiredRoles } from '../docs/required-roles.js';
import { Ctx } from '../http/request-context.js';
import { UuidParam, ValidBody, ValidParams, ValidQuery } from '../http/validation.js';
import { ServiceRoutes } from '../services.js';

/** The request of a payout action: the leg's ids (lower-cased) and the body. */
function payoutOf(path: PayoutPathDto, body: PayoutRequestDto) {
  return { walletId: path.id.toLowerCase(), withdrawalId: path.withdrawalId.toLowerCase(), payoutId: path.payoutId.toLowerCase(), ...body };
}

@ApiTags('withdrawals')
@ApiBearerAuth()
@Controller('v2/wallets/:id')
export class WithdrawalsController extends ServiceRoutes {
  @Post('withdrawal-preview')
  @HttpCode(200)
  @Operation('previewWithdrawal', {
    summary: 'What a withdrawal would take, charge and pay; without amountUsd, what can be withdrawn now. Changes nothing. Every role.',
  })
  @RequiredRoles(SUBJECTS.wallet.withdrawalsPreview)
  @ApiOkResponse({ type: WithdrawalPreviewResponseDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404, 409] })
  preview(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @ValidBody(WithdrawalPreviewDto) body: WithdrawalPreviewDto,
  ): Promise<ForwardedJson<WithdrawalPreviewResponseDto>> {
    return this.ask(SUBJECTS.wallet.withdrawalsPreview, ctx, { walletId, ...body });
  }

  @Post('withdrawals')
  @HttpCode(200)
  @Operation('createWithdrawal', {
    summary: 'Withdraw to an external address (idempotent on requestId); one payout leg per position drawn on. Owners and admins.',
    description: 'The withdrawal starts `processing` and ends `completed`, `partially_completed`, `failed` or `cancelled`.',
  })
  @RequiredRoles(SUBJECTS.wallet.withdrawalsCreate)
  @ApiOkResponse({ type: WithdrawalDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404, 409] })
  create(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @ValidBody(CreateWithdrawalDto) body: CreateWithdrawalDto,
  ): Promise<ForwardedJson<WithdrawalDto>> {
    return this.ask(SUBJECTS.wallet.withdrawalsCreate, ctx, { walletId, ...body });
  }

  @Get('withdrawals')
  @Operation('listWithdrawals', { summary: "The wallet's withdrawals, newest first unless order=asc; filters by status and createdAtGte" })
  @ApiOkResponse({ type: WithdrawalListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  list(
    @Ctx() ctx: RequestContext,
    @ValidQuery(WithdrawalListQueryDto) query: WithdrawalListQueryDto,
    @UuidParam('id') walletId: string,
  ): Promise<ForwardedJson<WithdrawalListDto>> {
    return this.ask(SUBJECTS.wallet.withdrawalsList, ctx, { walletId, ...query });
  }

  @Get('withdrawals/:withdrawalId')
  @Operation('getWithdrawal', { summary: 'One withdrawal of the wallet, with its payout legs' })
  @ApiOkResponse({ type: WithdrawalDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  get(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @UuidParam('withdrawalId') withdrawalId: string,
  ): Promise<ForwardedJson<WithdrawalDto>> {
    return this.ask(SUBJECTS.wallet.withdrawalsGet, ctx, { walletId, withdrawalId });
  }

  @Post('withdrawals/:withdrawalId/cancel')
  @HttpCode(200)
  @Operation('cancelWithdrawal', {
    summary: 'Cancel a withdrawal none of whose payouts has been broadcast (idempotent on requestId). Owners and admins.',
  })
  @RequiredRoles(SUBJECTS.wallet.withdrawalsCancel)
  @ApiOkResponse({ type: WithdrawalDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404, 409] })
  cancel(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @UuidParam('withdrawalId') withdrawalId: string,
    @ValidBody(CancelWithdrawalDto) body: CancelWithdrawalDto,
  ): Promise<ForwardedJson<WithdrawalDto>> {
    return this.ask(SUBJECTS.wallet.withdrawalsCancel, ctx, { walletId, withdrawalId, ...body });
  }

  @Post('withdrawals/:withdrawalId/payouts/:payoutId/retry')
  @HttpCode(200)
  @Operation('retryWithdrawalPayout', {
    summary: 'Run a failed payout leg again (owners and admins; idempotent on requestId)',
    description:
      'Only a leg whose failure is retryable: it is re-planned (`planning`) and runs again, and a withdrawal that had settled processes again. ' +
      'A leg that failed for good: 409 `payout_not_retryable`; one completed, skipped or cancelled: 409 `payout_already_terminal`; one not failed: 409 `payout_in_progress`; unknown: 404 `payout_not_found`.',
  })
  @RequiredRoles(SUBJECTS.wallet.payoutsRetry)
  @ApiOkResponse({ type: PayoutLegDto, description: 'The leg, back in `planning`.' })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404, 409] })
  retryPayout(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @ValidParams(PayoutPathDto) path: PayoutPathDto,
    @ValidBody(PayoutRequestDto) body: PayoutRequestDto,
  ) {
    return this.ask(SUBJECTS.wallet.payoutsRetry, ctx, payoutOf(path, body));
  }

  @Post('withdrawals/:withdrawalId/payouts/:payoutId/cancel')
  @HttpCode(200)
  @Operation('cancelWithdrawalPayout', {
    summary: 'Cancel one payout leg before it is broadcast (owners and admins; idempotent on requestId)',
    description:
      'Its money stays in the wallet; once every leg has ended the withdrawal is `partially_completed` (another leg delivered) or `cancelled`. ' +
      'A broadcast leg: 409 `payout_in_progress`; an ended one: 409 `payout_already_terminal`; unknown: 404 `payout_not_found`.',
  })
  @RequiredRoles(SUBJECTS.wallet.payoutsCancel)
  @ApiOkResponse({ type: PayoutLegDto, description: 'The leg, `cancelled`.' })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404, 409] })
  cancelPayout(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @ValidParams(PayoutPathDto) path: PayoutPathDto,
    @ValidBody(PayoutRequestDto) body: PayoutRequestDto,
  ) {
    return this.ask(SUBJECTS.wallet.payoutsCancel, ctx, payoutOf(path, body));
  }

  @Post('withdrawals/:withdrawalId/payouts/:legIndex/approve')
  @HttpCode(410)
  @Operation('approveWithdrawalPayout', {
    summary: 'Gone: a payout leg is released by stamped approver votes now',
    description:
      'Always 410 `approval_flow_changed`. Register approver keys (`POST /v2/approvals/approvers`), then vote with `POST /v2/turnkey/activities/{activityId}/vote`.',
    deprecated: true,
  })
  @RequiredRoles()
  @ApiParam({ name: 'legIndex', description: 'Position of the leg in payoutLegs, from 0', schema: { type: 'integer', minimum: 0 } })
  @ApiResponse({ status: 410, description: '`approval_flow_changed`', type: ErrorBodyDto })
  @ApiStandardErrors()
  approve(): never {
    throw new ServiceError(
      'approval_flow_changed',
      'Payout approval by role is gone: a leg in pending_customer_approval is released by stamped votes of the organization’s approvers. See GET /v2/turnkey/activities/pending, POST /v2/turnkey/activity-approval-request and POST /v2/turnkey/activities/{activityId}/vote.',
    );
  }
}
