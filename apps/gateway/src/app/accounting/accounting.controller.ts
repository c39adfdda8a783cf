import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  AccountingActivityPageDto,
  AccountingActivityQueryDto,
  PeriodSummaryDto,
  PeriodSummaryQueryDto,
  type RequestContext,
  SUBJECTS,
  WalletActivityPageDto,
  WalletActivityQueryDto,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { ForwardedJson } from '@service/nats';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Operation } from '../docs/operation.js';
import { Ctx } from '../http/request-context.js';
import { UuidParam, ValidQuery } from '../http/validation.js';
import { ServiceRoutes } from '../services.js';

/** Exactly one of `walletId` and `scope=organization`; both or neither is a `validation_error`. */
function oneScope(query: { walletId?: string; scope?: string }): void {
  if ((query.walletId === undefined) === (query.scope === undefined)) {
    throw new ServiceError('validation_error', 'Provide exactly one of walletId or scope=organization.');
  }
}

@ApiTags('accounting')
@ApiBearerAuth()
@Controller('v2/accounting')
export class AccountingController extends ServiceRoutes {
  @Get('yield/period-summary')
  @Operation('getAccountingYieldPeriodSummary', {
    summary: "A period's value, flows and yield performance of a wallet or the organization, exact to the micro-dollar",
    description:
      'Exactly one of `walletId` or `scope=organization`; `start` inclusive, `end` exclusive (ISO 8601 UTC, `start < end`, `end` not after now). ' +
      '`costBasisMethod` is `fifo` (the only method). Read from the accounting ledger: ' +
      '`endingValueUsd = startingValueUsd + externalDepositsUsd - externalPayoutsUsd + groundCreditsUsd - explicitFeesUsd + investmentPerformanceUsd` and ' +
      '`investmentPerformanceUsd = realizedPerformanceUsd + unrealizedPerformanceUsd` hold exactly, and periods compose. ' +
      '`status` is `exact` when the ledger reproduces the positions, else `unreconciled` with a `reason`. 404 `wallet_not_found` for a wallet of another organization.',
  })
  @ApiOkResponse({ type: PeriodSummaryDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  periodSummary(
    @Ctx() ctx: RequestContext,
    @ValidQuery(PeriodSummaryQueryDto) query: PeriodSummaryQueryDto,
  ): Promise<ForwardedJson<PeriodSummaryDto>> {
    oneScope(query);
    return this.ask(SUBJECTS.wallet.accountingPeriodSummary, ctx, query);
  }

  @Get('activity')
  @Operation('listAccountingActivity', {
    summary: "The accounting ledger's events of a wallet or the organization in [startAt, endAt), newest first",
    description:
      'Exactly one of `walletId` or `scope=organization`. Each item is one accounting event (deposit, payout or fee, lot bought or redeemed, ' +
      'transfer between cash positions, accrual settled); `type` keeps deposits or withdrawals (payouts and fees). `{data, nextCursor}`.',
  })
  @ApiOkResponse({ type: AccountingActivityPageDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  activity(
    @Ctx() ctx: RequestContext,
    @ValidQuery(AccountingActivityQueryDto) query: AccountingActivityQueryDto,
  ): Promise<ForwardedJson<AccountingActivityPageDto>> {
    oneScope(query);
    return this.ask(SUBJECTS.wallet.accountingActivity, ctx, query);
  }
}

@ApiTags('wallets')
@ApiBearerAuth()
@Controller('v2/wallets')
export class WalletActivityController extends ServiceRoutes {
  @Get(':id/activity')
  @Operation('listWalletActivity', {
    summary: "One wallet's deposits and withdrawals (payouts delivered), newest first, from the accounting ledger",
    description: '`type` keeps deposits or withdrawals. `{data, nextCursor}`; 404 `wallet_not_found` for a wallet of another organization.',
  })
  @ApiOkResponse({ type: WalletActivityPageDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  list(
    @Ctx() ctx: RequestContext,
    @UuidParam('id') walletId: string,
    @ValidQuery(WalletActivityQueryDto) query: WalletActivityQueryDto,
  ): Promise<ForwardedJson<WalletActivityPageDto>> {
    return this.ask(SUBJECTS.wallet.walletActivityList, ctx, { walletId, ...query });
  }
}
