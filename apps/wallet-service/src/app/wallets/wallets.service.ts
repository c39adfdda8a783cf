import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { RequestContext, RequestOf, SUBJECTS, WalletDto, WalletListDto, WalletYieldDto } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { SameAnswers, TurnReads } from '@service/sql';
import { KeysetPage } from '@service/pagination';
import { fingerprint } from '../domain/idempotency.js';
import { listFiltersOf } from '../domain/list-filters.js';
import type { PositionRow } from '../domain/ledger.js';
import { planToTargets } from '../domain/rebalance-plans.js';
import type { WalletRecord } from '../domain/records.js';
import { parseStrategy, type Strategy } from '../domain/strategy.js';
import { strategyChanged } from '../domain/wallet-events.js';
import { valuePositions, walletView, yieldView } from '../domain/wallet-view.js';
import { WalletFeature } from '../environment/wallet-feature.js';
import { claimRequestId, rememberResponse } from '../repositories/idempotency-keys.repository.js';
import { openLedger } from '../repositories/positions.repository.js';
import { createRebalance } from '../rebalances/rebalance-changes.js';
import { blockedSources } from '../repositories/risk-blocks.repository.js';
import { WalletReads } from '../repositories/wallet-reads.js';
import type { WalletTx } from '../repositories/wallet-sql.js';
import {
  countWallets,
  insertWallet,
  listWalletsQuery,
  lockWallet,
  lockWalletCreation,
  updateLabel,
  updateStrategy,
} from '../repositories/wallets.repository.js';

const LIST = 'wallets';

@Injectable()
export class WalletsService extends WalletFeature {
  /** Single-wallet reads, one statement per event-loop turn. */
  private readonly reads = new WalletReads(this.sql);
  /** Pages of wallets, a turn's in one round trip; an identical page read once. */
  private readonly pages = new TurnReads(this.sql);
  /** The answers of a turn's identical page reads at one instant, built once. */
  private readonly pageViews = new SameAnswers<WalletListDto>();

  /**
   * A wallet in `creating`; the worker derives its deposit addresses and makes it `idle`. The
   * answer is kept with the request id, so a replay (a client retrying a create whose first answer
   * it never saw) repeats it exactly, as allocate's replays do, instead of
   * answering whatever the worker has made of the wallet since.
   */
  async create(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.walletsCreate>): Promise<WalletDto> {
    const strategy = parseStrategy(input.strategy.allocations, this.env.catalogue);
    const wanted = { label: input.label ?? null, autoRebalance: input.autoRebalance ?? false, strategy };
    const key = { orgId: ctx.orgId, operation: 'wallet.create', requestId: input.requestId } as const;
    const id = randomUUID();
    // PgPoolSql: the organization's creation lock, the key, the count, the wallet; the answer with COMMIT.
    const outcome = await this.sql.$transaction(async (tx) => {
      await lockWalletCreation(tx, ctx.orgId);
      const claim = await claimRequestId(tx, { ...key, fingerprint: fingerprint(wanted), resourceId: id });
      if (!claim.fresh) return { created: false, walletId: claim.resourceId, answer: claim.response as WalletDto | null };
      await this.checkLimit(tx, ctx.orgId);
      const record = await insertWallet(tx, { id, orgId: ctx.orgId, ...wanted });
      const answer = this.view(record, [], this.env.now());
      await rememberResponse(tx, key, answer);
      return { created: true, walletId: record.id, answer };
    });
    if (outcome.created) this.runDueWork();
    // Keys claimed before answers were kept carry none: those replays answer the wallet as it is.
    return outcome.answer ?? this.get(ctx, outcome.walletId);
  }

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.walletsList>): Promise<WalletListDto> {
    const filters = listFiltersOf(input);
    const page = new KeysetPage(LIST, filters.bound, input, { order: filters.order });
    const rows = await this.pages.read(listWalletsQuery(ctx.orgId, filters.where, page));
    const now = this.env.now();
    // The same rows (the organization's), the same question and the same instant: the same page.
    return this.pageViews.of(rows, `${now.getTime()} ${JSON.stringify(input)}`, () =>
      page.page(rows, (row) => this.view(row, row.positions, now)),
    );
  }

  async get(ctx: RequestContext, walletId: string): Promise<WalletDto> {
    const row = await this.reads.find(ctx.orgId, walletId);
    return this.view(row, row.positions, this.env.now());
  }

  async updateLabel(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.walletsUpdate>): Promise<WalletDto> {
    // null or "" clears the label.
    await updateLabel(this.prisma, ctx.orgId, input.walletId, input.label === '' ? null : input.label);
    return this.get(ctx, input.walletId);
  }

  /** New targets; on an autoRebalance wallet, also the rebalance that reaches them. */
  async updateStrategy(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.strategyUpdate>): Promise<WalletDto> {
    const strategy = parseStrategy(input.allocations, this.env.catalogue);
    const now = this.env.now();
    // PgPoolSql: the lock, the key; then the new targets and, on an autoRebalance wallet, the rebalance.
    const changed = await this.sql.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, ctx.orgId, input.walletId);
      const claim = await claimRequestId(tx, {
        orgId: ctx.orgId,
        operation: 'wallet.strategy',
        requestId: input.requestId,
        fingerprint: fingerprint({ walletId: wallet.id, strategy }),
        resourceId: wallet.id,
      });
      if (!claim.fresh) return false;
      await this.applyStrategy(tx, wallet, strategy, now);
      return true;
    });
    if (changed) {
      this.publishAndRun();
    }
    return this.get(ctx, input.walletId);
  }

  /** What the wallet has earned and earns in a year at the sources' current rates. */
  async yield(ctx: RequestContext, walletId: string): Promise<WalletYieldDto> {
    const row = await this.reads.find(ctx.orgId, walletId);
    return yieldView(row.id, valuePositions(row.positions, this.env.catalogue, this.env.timeScale, this.env.now()), this.env.catalogue);
  }

  /**
   * The new targets, announced (`strategy.status_changed`); on an autoRebalance wallet past
   * `creating`, the rebalance that reaches them (`rebalance.status_changed`, created).
   */
  private async applyStrategy(tx: WalletTx, wallet: WalletRecord, strategy: Strategy, now: Date): Promise<void> {
    await updateStrategy(tx, wallet.id, strategy, now, [strategyChanged(wallet, strategy, now)]);
    if (!wallet.autoRebalance || wallet.status === 'creating') return;
    const ledger = await openLedger(tx, wallet.id, this.env, now);
    // A source a risk action blocks is not bought: its share stays cash.
    const moves = planToTargets(strategy, ledger.positions(), this.env, await blockedSources(tx, wallet.id));
    if (moves.length > 0) await createRebalance(tx, { wallet, ledger, moves, now });
  }

  private async checkLimit(tx: WalletTx, orgId: string): Promise<void> {
    const count = await countWallets(tx, orgId);
    if (count >= this.env.config.WALLET_MAX_PER_ORG) {
      throw new ServiceError(
        'wallet_limit_reached',
        `This organization already holds the maximum of ${this.env.config.WALLET_MAX_PER_ORG} wallets.`,
      );
    }
  }

  private view(wallet: WalletRecord, positions: PositionRow[], now: Date): WalletDto {
    return walletView(wallet, valuePositions(positions, this.env.catalogue, this.env.timeScale, now), this.env.catalogue);
  }
}
