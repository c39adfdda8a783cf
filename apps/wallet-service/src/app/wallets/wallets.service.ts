import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext, RequestOf, SUBJECTS, WalletDto, WalletListDto, WalletYieldDto } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { formatUsd } from '@service/money';
import { NewestFirst } from '@service/pagination';
import { OutboxRelayService } from '@service/service-runtime';
import type { Position, Wallet } from '../../generated/prisma/client.js';
import { PrismaService } from '../prisma.service.js';
import { planToTargets } from '../rebalances/plans.js';
import { createRebalance } from '../rebalances/rebalance-workflow.js';
import type { Tx } from '../shared/db.js';
import { emitWalletEvent } from '../shared/events.js';
import { claimRequestId, fingerprint } from '../shared/idempotency.js';
import { Ledger } from '../shared/ledger.js';
import { WalletEnvironment } from '../shared/wallet-environment.js';
import { lockWallet, walletNotFound } from '../shared/wallet-lock.js';
import { WorkflowWorker } from '../workflows/workflow-worker.js';
import { parseStrategy, type Strategy, strategyView } from './strategy.js';
import { valuePositions, walletView } from './wallet-view.js';


const LIST = 'wallets';

@Injectable()
export class WalletsService {
  constructor(
    @Inject(PrismaService) private readonly prisma: PrismaService,
    @Inject(WalletEnvironment) private readonly env: WalletEnvironment,
    @Inject(OutboxRelayService) private readonly relay: OutboxRelayService,
    @Inject(WorkflowWorker) private readonly worker: WorkflowWorker,
  ) {}

  /** A wallet in `creating`; the worker derives its deposit addresses and makes it `idle`. */
  async create(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.walletsCreate>): Promise<WalletDto> {
    const strategy = parseStrategy(input.strategy.allocations, this.env.catalogue);
    const wanted = { label: input.label ?? null, autoRebalance: input.autoRebalance ?? false, strategy };
    const id = randomUUID();
    const walletId = await this.prisma.$transaction(async (tx) => {
      // One creation per organization at a time, so the limit holds under concurrent requests.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`wallet-create:${ctx.orgId}`}))`;
      const claim = await claimRequestId(tx, {
        orgId: ctx.orgId,
        operation: 'wallet.create',
        requestId: input.requestId,
        fingerprint: fingerprint(wanted),
        resourceId: id,
      });
      if (!claim.fresh) return claim.resourceId;
      await this.checkLimit(tx, ctx.orgId);
      await tx.wallet.create({ data: { id, orgId: ctx.orgId, status: 'creating', depositAddresses: {}, ...wanted } });
      return id;
    });
    if (walletId === id) this.worker.kick();
    return this.get(ctx, walletId);
  }

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.walletsList>): Promise<WalletListDto> {
    const page = new NewestFirst(LIST, {}, input);
    const rows = await this.prisma.wallet.findMany({
      where: {
        orgId: ctx.orgId,
        ...page.where,
      },
      include: { positions: true },
      orderBy: page.orderBy,
      take: page.take,
    });
    const now = new Date();
    return page.page(rows, (row) => this.view(row, row.positions, now));
  }

  async get(ctx: RequestContext, walletId: string): Promise<WalletDto> {
    const row = await this.prisma.wallet.findFirst({ where: { id: walletId, orgId: ctx.orgId }, include: { positions: true } });
    if (!row) throw walletNotFound(walletId);
    return this.view(row, row.positions, new Date());
  }

  async updateLabel(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.walletsUpdate>): Promise<WalletDto> {
    const updated = await this.prisma.wallet.updateMany({
      where: { id: input.walletId, orgId: ctx.orgId },
      data: { label: input.label, updatedAt: new Date() },
    });
    if (updated.count === 0) throw walletNotFound(input.walletId);
    return this.get(ctx, input.walletId);
  }

  /** New targets; on an autoRebalance wallet, also the rebalance that reaches them. */
  async updateStrategy(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.strategyUpdate>): Promise<WalletDto> {
    const strategy = parseStrategy(input.allocations, this.env.catalogue);
    const now = new Date();
    const changed = await this.prisma.$transaction(async (tx) => {
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
      this.relay.wake();
      this.worker.kick();
    }
    return this.get(ctx, input.walletId);
  }

  /** What the wallet has earned and earns in a year at the sources' current rates. */
  async yield(ctx: RequestContext, walletId: string): Promise<WalletYieldDto> {
    const row = await this.prisma.wallet.findFirst({ where: { id: walletId, orgId: ctx.orgId }, include: { positions: true } });
    if (!row) throw walletNotFound(walletId);
    const { catalogue, config } = this.env;
    const valued = valuePositions(row.positions, catalogue, config.WALLET_YIELD_TIME_SCALE, new Date());
    const total = valued.reduce((sum, position) => sum + position.value, 0n);
    const deployed = valued.filter((position) => position.row.kind === 'yield_source' && position.value > 0n);
    let annualized = 0n;
    const positions = deployed.map(({ row: position, value }) => {
      const source = catalogue.get(position.positionId);
      const apyBps = catalogue.accrualBps(source);
      annualized += (value * BigInt(apyBps)) / 10_000n;
      return { yieldSourceId: source.id, name: source.name, apyBps, pct: Number((value * 100n) / total), deployedValueUsd: formatUsd(value) };
    });
    const earned = valued.reduce((sum, position) => sum + position.earned, 0n);
    return { earnedUsd: formatUsd(earned), annualizedUsd: formatUsd(annualized), positions };
  }

  private async applyStrategy(tx: Tx, wallet: Wallet, strategy: Strategy, now: Date): Promise<void> {
    await tx.wallet.update({ where: { id: wallet.id }, data: { strategy, updatedAt: now } });
    await emitWalletEvent(tx, { orgId: wallet.orgId, walletId: wallet.id, observedAt: now }, 'portfolio_wallet.strategy.status_changed', {
      strategy: { status: 'active', allocations: strategyView(strategy) },
    });
    if (!wallet.autoRebalance || wallet.status === 'creating') return;
    const ledger = await Ledger.open(tx, wallet.id, this.env.catalogue, this.env.config, now);
    const moves = planToTargets(strategy, ledger.positions(), this.env);
    if (moves.length > 0) await createRebalance(tx, { wallet, ledger, moves, now });
  }

  private async checkLimit(tx: Tx, orgId: string): Promise<void> {
    const count = await tx.wallet.count({ where: { orgId } });
    if (count >= this.env.config.WALLET_MAX_PER_ORG) {
      throw new ServiceError('wallet_limit_reached', `This organization already holds the maximum of ${this.env.config.WALLET_MAX_PER_ORG} wallets.`);
    }
  }

  private view(wallet: Wallet, positions: Position[], now: Date): WalletDto {
    return walletView(wallet, valuePositions(positions, this.env.catalogue, this.env.config.WALLET_YIELD_TIME_SCALE, now), this.env.catalogue);
  }
}
