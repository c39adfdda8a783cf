import { Inject, Injectable } from '@nestjs/common';
import type { AllocatePreviewResponseDto, AllocationResponseDto, RequestContext, RequestOf, SUBJECTS } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { formatUsd } from '@service/money';
import { OutboxRelayService } from '@service/service-runtime';
import type { Wallet } from '../../generated/prisma/client.js';
import { PrismaService } from '../prisma.service.js';
import { claimRequestId, fingerprint, rememberResponse } from '../shared/idempotency.js';
import { Ledger } from '../shared/ledger.js';
import { WalletEnvironment } from '../shared/wallet-environment.js';
import { lockWallet, walletNotFound } from '../shared/wallet-lock.js';
import { WorkflowWorker } from '../workflows/workflow-worker.js';
import { positionsView, valuePositions } from '../wallets/wallet-view.js';
import { instructionsView, type Move, outflows, parseInstructions } from './instructions.js';
import { allocationResponse, createRebalance } from './rebalance-workflow.js';

const ALLOCATING_ROLES = new Set(['owner', 'admin']);

@Injectable()
export class RebalancesService {
  constructor(
    @Inject(PrismaService) private readonly prisma: PrismaService,
    @Inject(WalletEnvironment) private readonly env: WalletEnvironment,
    @Inject(OutboxRelayService) private readonly relay: OutboxRelayService,
    @Inject(WorkflowWorker) private readonly worker: WorkflowWorker,
  ) {}

  /** Explicit allocations on a wallet without autoRebalance: owners and admins only, idempotent on requestId. */
  async allocate(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.allocate>): Promise<AllocationResponseDto> {
    if (!ALLOCATING_ROLES.has(ctx.role)) throw new ServiceError('forbidden', 'Only organization owners and admins may allocate.');
    const moves = parseInstructions(input.allocations, this.env);
    const now = new Date();
    const key = { orgId: ctx.orgId, operation: 'wallet.allocate' as const, requestId: input.requestId };
    const result = await this.prisma.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, ctx.orgId, input.walletId);
      const claim = await claimRequestId(tx, {
        ...key,
        fingerprint: fingerprint({ walletId: wallet.id, allocations: instructionsView(moves) }),
        resourceId: wallet.id,
      });
      if (!claim.fresh) return { response: claim.response as AllocationResponseDto, created: false };
      const ledger = await Ledger.open(tx, wallet.id, this.env.catalogue, this.env.config, now);
      this.checkAllocatable(wallet, ledger, moves);
      const row = await createRebalance(tx, { wallet, ledger, moves, requestId: input.requestId, now });
      const response = allocationResponse(row);
      await rememberResponse(tx, key, response);
      return { response, created: true };
    });
    if (result.created) {
      this.relay.wake();
      this.worker.kick();
    }
    return result.response;
  }

  /** The same checks as allocate, and the positions before and after; nothing changes. */
  async preview(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.allocatePreview>): Promise<AllocatePreviewResponseDto> {
    const moves = parseInstructions(input.allocations, this.env);
    const wallet = await this.prisma.wallet.findFirst({ where: { id: input.walletId, orgId: ctx.orgId }, include: { positions: true } });
    if (!wallet) throw walletNotFound(input.walletId);
    const now = new Date();
    const { catalogue, config } = this.env;
    const before = valuePositions(wallet.positions, catalogue, config.WALLET_YIELD_TIME_SCALE, now);
    const ledger = Ledger.fromRows(wallet.id, before.map(({ row, value, earned }) => ({ ...row, amount: value, earned, accruedAt: now })));
    this.checkAllocatable(wallet, ledger, moves);
    ledger.applyAll(moves);
    return {
      allocations: instructionsView(moves),
      before: positionsView(before, catalogue),
      after: positionsView(valuePositions(ledger.positions(), catalogue, config.WALLET_YIELD_TIME_SCALE, now), catalogue),
    };
  }

  private checkAllocatable(wallet: Wallet, ledger: Ledger, moves: Move[]): void {
    if (wallet.autoRebalance) {
      throw new ServiceError(
        'operation_not_supported',
        `Wallet ${wallet.id} rebalances automatically; change its targets with PATCH /v2/wallets/${wallet.id}/strategy instead.`,
      );
    }
    for (const [positionId, amount] of outflows(moves)) {
      const available = ledger.available(positionId);
      if (available < amount) {
        throw new ServiceError('insufficient_funds', `Position ${positionId} has ${formatUsd(available)} USD available, less than the ${formatUsd(amount)} USD to move.`);
      }
    }
  }
}
