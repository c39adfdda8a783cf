import { Inject, Injectable } from '@nestjs/common';
import type {
  AccountingActivityItemDto,
  AccountingActivityPageDto,
  PeriodSummaryDto,
  RequestContext,
  RequestOf,
  SUBJECTS,
  WalletActivityItemDto,
  WalletActivityPageDto,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { formatUsd } from '@service/money';
import { decodeCursor, encodeCursor } from '@service/pagination';
import type { StoredEvent } from '../domain/accounting-ledger/summary.js';
import { flowsBetween, periodFigures, reconciliationReason } from '../domain/accounting-ledger/summary.js';
import { walletNotFound } from '../domain/errors.js';
import { WalletEnvironment } from '../environment/wallet-environment.js';
import { listAccountingEvents, readPeriod } from '../repositories/accounting.repository.js';
import { WalletSql } from '../repositories/wallet-sql.js';

/** The activity item type of each ledger event type. */
const ITEM_TYPE: Record<string, string> = {
  deposit: 'deposit',
  payout: 'withdrawal',
  fee: 'withdrawal',
  buy: 'allocation',
  redeem: 'redemption',
  transfer_in: 'transfer',
  transfer_out: 'transfer',
  accrual: 'yield_accrual',
};
/** The ledger event types behind each activity `type` filter. */
const EVENT_TYPES: Record<string, readonly string[]> = { deposit: ['deposit'], withdrawal: ['payout', 'fee'] };

/** Exactly one of `walletId` and `scope=organization`: the wallet, or null for the organization. */
function scopeOf(input: { walletId?: string; scope?: string }): string | null {
  if ((input.walletId === undefined) === (input.scope === undefined)) {
    throw new ServiceError('validation_error', 'Provide exactly one of walletId or scope=organization.');
  }
  return input.walletId?.toLowerCase() ?? null;
}

function instant(value: string, field: string): Date {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new ServiceError('validation_error', `${field} must be an ISO 8601 UTC date-time.`);
  return at;
}

function periodOf(startText: string, endText: string, names: [string, string], now: Date): { start: Date; end: Date } {
  const start = instant(startText, names[0]);
  const end = instant(endText, names[1]);
  if (start >= end) throw new ServiceError('validation_error', `${names[0]} must be before ${names[1]}.`);
  if (end > now) throw new ServiceError('validation_error', `${names[1]} must not be in the future (now is ${now.toISOString()}).`);
  return { start, end };
}

/** The ledger position a cursor holds: the `seq` of the page's last event. */
function seqOf(position: unknown): bigint {
  if (typeof position !== 'string' || !/^\d{1,19}$/.test(position))
    throw new ServiceError('invalid_cursor', 'cursor is not one this list gave.');
  return BigInt(position);
}

/**
 * The accounting reports, read from the `accounting_events` ledger (see README "Accounting"):
 * a period's summary of a wallet or the organization, and the ledger's events as activity.
 */
@Injectable()
export class AccountingService {
  constructor(
    @Inject(WalletEnvironment) private readonly env: WalletEnvironment,
    @Inject(WalletSql) private readonly sql: WalletSql,
  ) {}

  async periodSummary(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.accountingPeriodSummary>): Promise<PeriodSummaryDto> {
    const walletId = scopeOf(input);
    const { start, end } = periodOf(input.start, input.end, ['start', 'end'], this.env.now());
    const read = await readPeriod(this.sql, { orgId: ctx.orgId, walletId, start, end });
    if (walletId && !read.found) throw walletNotFound(walletId);
    const flows = flowsBetween(read.start, read.end);
    const figures = periodFigures({ start: read.start, end: read.end, flows, startAt: start, endAt: end }, this.env);
    const reason = reconciliationReason(read.current, figures);
    const status = reason === null ? 'exact' : 'unreconciled';
    return {
      periodStart: start.toISOString(),
      periodEnd: end.toISOString(),
      scope: walletId ? 'wallet' : 'organization',
      portfolioWalletId: walletId,
      costBasisMethod: input.costBasisMethod ?? 'fifo',
      status,
      reason,
      summary: {
        startingValueUsd: formatUsd(figures.startingValue),
        endingValueUsd: formatUsd(figures.endingValue),
        externalDepositsUsd: formatUsd(figures.externalDeposits),
        externalPayoutsUsd: formatUsd(figures.externalPayouts),
        groundCreditsUsd: formatUsd(figures.groundCredits),
        explicitFeesUsd: formatUsd(figures.explicitFees),
        realizedPerformanceUsd: formatUsd(figures.realizedPerformance),
        unrealizedPerformanceUsd: formatUsd(figures.unrealizedPerformance),
        investmentPerformanceUsd: formatUsd(figures.investmentPerformance),
        reconciliationStatus: status,
      },
      yieldSources: figures.sources.map((source) => ({
        yieldSourceId: source.yieldSourceId,
        yieldSourceLabel: this.env.catalogue.find(source.yieldSourceId)?.name ?? source.yieldSourceId,
        entryValueUsd: formatUsd(source.entryValue),
        exitValueUsd: formatUsd(source.exitValue),
        netPerformanceUsd: formatUsd(source.netPerformance),
      })),
    };
  }

  async activity(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.accountingActivity>): Promise<AccountingActivityPageDto> {
    const walletId = scopeOf(input);
    const { start, end } = periodOf(input.startAt, input.endAt, ['startAt', 'endAt'], new Date(8_640_000_000_000_000));
    const page = await this.page(ctx, { walletId, startAt: start, endAt: end, type: input.type, cursor: input.cursor, limit: input.limit });
    return { data: page.events.map((event) => this.accountingItem(event)), nextCursor: page.nextCursor };
  }

  async walletActivity(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.walletActivityList>): Promise<WalletActivityPageDto> {
    const page = await this.page(ctx, {
      walletId: input.walletId.toLowerCase(),
      startAt: null,
      endAt: null,
      type: input.type,
      cursor: input.cursor,
      limit: input.limit,
      // A wallet's activity is its deposits and payouts; a fee is part of its withdrawal's detail.
      only: ['deposit', 'payout'],
    });
    return { data: page.events.map((event) => walletItem(event)), nextCursor: page.nextCursor };
  }

  private async page(
    ctx: RequestContext,
    input: {
      walletId: string | null;
      startAt: Date | null;
      endAt: Date | null;
      type?: string;
      cursor?: string;
      limit?: number;
      only?: readonly string[];
    },
  ): Promise<{ events: StoredEvent[]; nextCursor: string | null }> {
    const limit = input.limit ?? 20;
    const wanted = input.type ? (EVENT_TYPES[input.type] ?? []) : null;
    const types = input.only ? (wanted ?? input.only).filter((type) => input.only?.includes(type)) : wanted;
    // A cursor belongs to its list (the organization's or one wallet's activity) and filters.
    const list = input.only ? 'wallet.activity' : 'accounting.activity';
    const filters = {
      walletId: input.walletId,
      startAt: input.startAt?.toISOString(),
      endAt: input.endAt?.toISOString(),
      type: input.type,
    };
    const read = await listAccountingEvents(this.sql, {
      orgId: ctx.orgId,
      walletId: input.walletId,
      startAt: input.startAt,
      endAt: input.endAt,
      types,
      beforeSeq: input.cursor === undefined ? null : seqOf(decodeCursor(input.cursor, list, filters, 1)[0]),
      limit,
    });
    if (input.walletId && !read.found) throw walletNotFound(input.walletId);
    const events = read.events.slice(0, limit);
    const last = events.at(-1);
    return { events, nextCursor: read.events.length > limit && last ? encodeCursor(list, filters, [last.seq.toString()]) : null };
  }

  private accountingItem(event: StoredEvent): AccountingActivityItemDto {
    const source = event.positionKind === 'yield_source' ? this.env.catalogue.find(event.positionId) : undefined;
    const [, cashChain = null, cashToken = null] = event.positionKind === 'cash' ? event.positionId.split(':') : [];
    return {
      ...walletItem(event),
      walletId: event.walletId,
      walletLabel: event.walletLabel,
      accountingEventId: event.id,
      eventType: event.type,
      accountId: event.positionId,
      accountKind: event.positionKind,
      chain: event.chain ?? source?.chain ?? cashChain,
      token: event.token ?? source?.depositToken ?? cashToken,
      yieldSourceId: source ? event.positionId : null,
      nativeUnits: event.amount,
      settlementValuedAt: event.occurredAt.toISOString(),
      createdAt: event.createdAt.toISOString(),
      txHash: event.txHash,
    };
  }
}

function walletItem(event: StoredEvent): WalletActivityItemDto {
  const reference = event.referenceType && event.referenceId ? { [`${event.referenceType}Id`]: event.referenceId } : {};
  return {
    id: event.id,
    type: ITEM_TYPE[event.type] ?? event.type,
    amountUsd: formatUsd(BigInt(event.amount)),
    timestamp: event.occurredAt.toISOString(),
    detail: {
      status: 'completed',
      ...reference,
      ...(event.chain ? { chain: event.chain } : {}),
      ...(event.token ? { token: event.token } : {}),
      txHash: event.txHash,
      ...(event.type === 'fee' ? { fee: true } : {}),
      ...(event.type === 'redeem' ? { costUsd: formatUsd(BigInt(event.cost)), realizedUsd: formatUsd(BigInt(event.realized)) } : {}),
      ...(event.type === 'buy' ? { costUsd: formatUsd(BigInt(event.cost)) } : {}),
      ...(event.type === 'accrual' ? { apyBps: event.rateBps } : {}),
      completedAt: event.occurredAt.toISOString(),
    },
  };
}
