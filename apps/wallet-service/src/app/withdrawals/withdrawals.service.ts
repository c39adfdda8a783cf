import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext, RequestOf, SUBJECTS, WithdrawalDto, WithdrawalListDto, WithdrawalPreviewResponseDto, WithdrawalRef } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { formatUsd, parseUsd } from '@service/money';
import { NewestFirst } from '@service/pagination';
import { OutboxRelayService } from '@service/service-runtime';
import type { Wallet, Withdrawal } from '../../generated/prisma/client.js';
import { PrismaService } from '../prisma.service.js';
import { addressKey, checkAddress } from '../addresses/payout-address.js';
import type { Tx } from '../shared/db.js';
import { claimRequestId, fingerprint } from '../shared/idempotency.js';
import { Ledger } from '../shared/ledger.js';
import { checkChainToken } from '../shared/positions.js';
import { WalletEnvironment } from '../shared/wallet-environment.js';
import { lockWallet, walletNotFound } from '../shared/wallet-lock.js';
import { WorkflowWorker } from '../workflows/workflow-worker.js';
import { valuePositions } from '../wallets/wallet-view.js';
import { type Destination, drawAmounts } from './payout-plan.js';
import { checkLimit, policyOf } from './policy.js';
import { processingEstimate } from './processing-estimate.js';
import { approveLeg, cancelWithdrawal, createWithdrawal, payableFrom } from './withdrawal-workflow.js';
import { withdrawalView } from './withdrawal-view.js';

const LIST = 'wallet-withdrawals';
const APPROVING_ROLES = new Set(['owner', 'admin']);
const withdrawalNotFound = (id: string) => new ServiceError('withdrawal_not_found', `Withdrawal ${id} was not found.`);

@Injectable()
export class WithdrawalsService {
  constructor(
    @Inject(PrismaService) private readonly prisma: PrismaService,
    @Inject(WalletEnvironment) private readonly env: WalletEnvironment,
    @Inject(OutboxRelayService) private readonly relay: OutboxRelayService,
    @Inject(WorkflowWorker) private readonly worker: WorkflowWorker,
  ) {}

  /** What a withdrawal to this chain and token would take and pay; without an amount, the most it can be. */
  async preview(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.withdrawalsPreview>): Promise<WithdrawalPreviewResponseDto> {
    const destination = this.destination(input, null);
    const wanted = input.amountUsd === undefined || input.amountUsd === null ? null : this.amountOf(input.amountUsd);
    const wallet = await this.prisma.wallet.findFirst({ where: { id: input.walletId, orgId: ctx.orgId }, include: { positions: true } });
    if (!wallet) throw walletNotFound(input.walletId);
    const now = new Date();
    const valued = valuePositions(wallet.positions, this.env.catalogue, this.env.config.WALLET_YIELD_TIME_SCALE, now);
    const ledger = Ledger.fromRows(wallet.id, valued.map(({ row, value, earned }) => ({ ...row, amount: value, earned, accruedAt: now })));
    const sources = payableFrom(ledger, destination, this.env);
    const withdrawable = sources.reduce((sum, source) => sum + source.available, 0n);
    const amount = wanted ?? withdrawable;
    this.checkFunds(amount, withdrawable);
    const total = valued.reduce((sum, position) => sum + position.value, 0n);
    const draws = drawAmounts(sources, destination, amount);
    return {
      amountRequestedUsd: formatUsd(amount),
      feeUsd: formatUsd(amount > 0n ? this.env.config.WALLET_WITHDRAWAL_FEE_USD : 0n),
      withdrawableUsd: formatUsd(withdrawable),
      totalUsdAfterWithdrawal: formatUsd(total - amount),
      processingEstimate: processingEstimate(draws.map((draw) => draw.positionId), this.env.catalogue),
    };
  }

  /** A withdrawal, idempotent on requestId: checks, policy, funds, then one payout leg per source drawn on. */
  async create(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.withdrawalsCreate>): Promise<WithdrawalDto> {
    const destination = this.destination(input, input.destinationAddress);
    const amount = this.amountOf(input.amountUsd);
    const fee = this.env.config.WALLET_WITHDRAWAL_FEE_USD;
    if (amount <= fee) throw new ServiceError('validation_error', `amountUsd must be more than the withdrawal fee of ${formatUsd(fee)} USD.`);
    const policy = policyOf(this.env.config.WALLET_WITHDRAWAL_POLICIES, ctx.orgId, this.env.sandbox);
    checkLimit(policy, amount, this.env.sandbox);
    const now = new Date();
    const id = randomUUID();
    const result = await this.prisma.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, ctx.orgId, input.walletId);
      const claim = await claimRequestId(tx, {
        orgId: ctx.orgId,
        operation: 'wallet.withdraw',
        requestId: input.requestId,
        fingerprint: fingerprint({ walletId: wallet.id, ...destination, amount: amount.toString() }),
        resourceId: id,
      });
      if (!claim.fresh) return { withdrawal: await tx.withdrawal.findUniqueOrThrow({ where: { id: claim.resourceId } }), created: false };
      if (policy.requireWhitelist) await this.checkWhitelisted(tx, ctx.orgId, destination);
      const ledger = await Ledger.open(tx, wallet.id, this.env.catalogue, this.env.config, now);
      this.checkFunds(amount, payableFrom(ledger, destination, this.env).reduce((sum, source) => sum + source.available, 0n));
      const withdrawal = await createWithdrawal({ tx, wallet, ledger, env: this.env, now }, { id, destination, amount, fee, requestId: input.requestId });
      return { withdrawal, created: true };
    });
    if (result.created) this.wake();
    return withdrawalView(result.withdrawal);
  }

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.withdrawalsList>): Promise<WithdrawalListDto> {
    await this.requireWallet(ctx, input.walletId);
    const page = new NewestFirst(LIST, { walletId: input.walletId }, input);
    const rows = await this.prisma.withdrawal.findMany({
      where: {
        walletId: input.walletId,
        ...page.where,
      },
      orderBy: page.orderBy,
      take: page.take,
    });
    return page.page(rows, withdrawalView);
  }

  async get(ctx: RequestContext, input: WithdrawalRef): Promise<WithdrawalDto> {
    await this.requireWallet(ctx, input.walletId);
    const row = await this.prisma.withdrawal.findFirst({ where: { id: input.withdrawalId, walletId: input.walletId } });
    if (!row) throw withdrawalNotFound(input.withdrawalId);
    return withdrawalView(row);
  }

  /** Cancels a withdrawal before any of its payouts is broadcast. */
  cancel(ctx: RequestContext, input: WithdrawalRef): Promise<WithdrawalDto> {
    return this.change(ctx, input, (step, row) => cancelWithdrawal(step, row));
  }

  /** Approves one payout leg waiting for the customer (owners and admins). */
  approve(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.payoutsApprove>): Promise<WithdrawalDto> {
    if (!APPROVING_ROLES.has(ctx.role)) throw new ServiceError('forbidden', 'Only organization owners and admins may approve payouts.');
    return this.change(ctx, input, (step, row) => approveLeg(step, row, input.legIndex));
  }

  private async change(
    ctx: RequestContext,
    input: WithdrawalRef,
    apply: (step: { tx: Tx; wallet: Wallet; ledger: Ledger; env: WalletEnvironment; now: Date }, row: Withdrawal) => Promise<Withdrawal>,
  ): Promise<WithdrawalDto> {
    const now = new Date();
    const row = await this.prisma.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, ctx.orgId, input.walletId);
      const found = await tx.withdrawal.findFirst({ where: { id: input.withdrawalId, walletId: wallet.id } });
      if (!found) throw withdrawalNotFound(input.withdrawalId);
      const ledger = await Ledger.open(tx, wallet.id, this.env.catalogue, this.env.config, now);
      return apply({ tx, wallet, ledger, env: this.env, now }, found);
    });
    this.wake();
    return withdrawalView(row);
  }

  private wake(): void {
    this.relay.wake();
    this.worker.kick();
  }

  /** Destination chain and token of this environment (Stellar included) and, when given, its address. */
  private destination(input: { destinationChain: string; token: string }, address: string | null): Destination {
    const { chain, token } = checkChainToken(input.destinationChain, input.token, this.env.allChains);
    return { chain, token, address: address === null ? '' : checkAddress(chain, address) };
  }

  private amountOf(raw: unknown): bigint {
    const amount = parseUsd(raw);
    if (amount <= 0n) throw new ServiceError('validation_error', 'amountUsd must be greater than zero.');
    return amount;
  }

  private checkFunds(amount: bigint, withdrawable: bigint): void {
    if (amount > withdrawable) {
      throw new ServiceError('insufficient_funds', `${formatUsd(amount)} USD is more than the ${formatUsd(withdrawable)} USD withdrawable to this chain and token.`);
    }
  }

  private async checkWhitelisted(tx: Tx, orgId: string, destination: Destination): Promise<void> {
    const entry = await tx.addressBookEntry.findUnique({
      where: { orgId_chain_addressKey: { orgId, chain: destination.chain, addressKey: addressKey(destination.chain, destination.address) } },
    });
    if (!entry) {
      throw new ServiceError('address_book_whitelist_violation', `${destination.address} on ${destination.chain} is not in this organization's address book.`);
    }
  }

  private async requireWallet(ctx: RequestContext, walletId: string): Promise<void> {
    const found = await this.prisma.wallet.count({ where: { id: walletId, orgId: ctx.orgId } });
    if (found === 0) throw walletNotFound(walletId);
  }
}
