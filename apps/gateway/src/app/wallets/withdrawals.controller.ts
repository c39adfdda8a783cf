import { Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateWithdrawalDto,
  NoQueryDto,
  PageQueryDto,
  type RequestContext,
  type RequestOf,
  type ResponseOf,
  type Subject,
  SUBJECTS,
  WithdrawalDto,
  WithdrawalListDto,
  WithdrawalPreviewDto,
  WithdrawalPreviewResponseDto,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { ForwardedJson, ServiceClient } from '@service/nats';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Ctx } from '../http/request-context.js';
import { UuidParam, ValidBody, ValidQuery } from '../http/validation.js';
import { SERVICES_CLIENT } from '../services.js';

/** A payout leg's position in `payoutLegs`, counted from 0. */
function legIndexOf(raw: string): number {
  if (!/^(0|[1-9][0-9]{0,2})$/.test(raw)) throw new ServiceError('validation_error', 'legIndex must be an integer from 0 to 999.');
  return Number(raw);
}

@ApiTags('withdrawals')
@ApiBearerAuth()
@Controller('v2/wallets/:id')
export class WithdrawalsController {
  constructor(@Inject(SERVICES_CLIENT) private readonly services: ServiceClient) {}

  private ask<S extends Subject>(subject: S, ctx: RequestContext, input: RequestOf<S>): Promise<ForwardedJson<ResponseOf<S>>> {
    return this.services.forward(subject, { ctx, ...input });
  }

  @Post('withdrawal-preview')
  @HttpCode(200)
  @ApiOperation({ summary: 'What a withdrawal would take, charge and pay; without amountUsd, the maximum. Changes nothing.' })
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
  @ApiOperation({ summary: 'Withdraw to an external address (idempotent on requestId); one payout leg per position drawn on' })
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
  @ApiOperation({ summary: "The wallet's withdrawals, newest first" })
  @ApiOkResponse({ type: WithdrawalListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  list(@Ctx() ctx: RequestContext, @ValidQuery(PageQueryDto) query: PageQueryDto, @UuidParam('id') walletId: string): Promise<ForwardedJson<WithdrawalListDto>> {
    return this.ask(SUBJECTS.wallet.withdrawalsList, ctx, { walletId, ...query });
  }

  @Get('withdrawals/:withdrawalId')
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
  @ApiOperation({ summary: 'Cancel a withdrawal none of whose payouts has been broadcast' })
  @ApiOkResponse({ type: WithdrawalDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404, 409] })
  cancel(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @UuidParam('withdrawalId') withdrawalId: string,
  ): Promise<ForwardedJson<WithdrawalDto>> {
    return this.ask(SUBJECTS.wallet.withdrawalsCancel, ctx, { walletId, withdrawalId });
  }

  @Post('withdrawals/:withdrawalId/payouts/:legIndex/approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve a payout leg waiting for the customer (owners and admins)' })
  @ApiParam({ name: 'legIndex', description: "Position of the leg in payoutLegs, from 0", schema: { type: 'integer', minimum: 0 } })
  @ApiOkResponse({ type: WithdrawalDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404, 409] })
  approve(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @UuidParam('withdrawalId') withdrawalId: string,
    @Param('legIndex') legIndex: string,
  ): Promise<ForwardedJson<WithdrawalDto>> {
    return this.ask(SUBJECTS.wallet.payoutsApprove, ctx, { walletId, withdrawalId, legIndex: legIndexOf(legIndex) });
  }
}
