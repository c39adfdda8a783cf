import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext, RequestOf, SUBJECTS, WithdrawalDto, WithdrawalListDto, WithdrawalPreviewResponseDto, WithdrawalRef } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { formatUsd, parseUsd } from '@service/money';
import { NewestFirst } from '@service/pagination';
import { OutboxRelayService } from '@service/service-runtime';
import type { Withdrawal } from '../../generated/prisma/client.js';
import { addressKey, checkAddress } from '../domain/addresses/payout-address.js';
import { balanceFigures, insufficientFunds } from '../domain/errors.js';
import { fingerprint } from '../domain/idempotency.js';
import { Ledger } from '../domain/ledger.js';
import { type Destination, drawAmounts } from '../domain/payout-plan.js';
import { checkChainToken } from '../domain/positions.js';
import { processingEstimate } from '../domain/processing-estimate.js';
import { valuePositions } from '../domain/wallet-view.js';
import { checkLimit, policyOf } from '../domain/withdrawal-policy.js';
import { payableFrom } from '../domain/withdrawal-progress.js';
import { withdrawalView } from '../domain/withdrawal-view.js';
import { WalletEnvironment } from '../environment/wallet-environment.js';
import { WORK_WAKER, type WorkWaker } from '../injection.js';
import { findEntry } from '../repositories/address-book.repository.js';
import { inTransaction, type Tx } from '../repositories/db.js';
import { claimRequestId } from '../repositories/idempotency-keys.repository.js';
import { openLedger } from '../repositories/positions.repository.js';
import { PrismaService } from '../repositories/prisma.service.js';
import { findWallet, lockWallet, requireWallet } from '../repositories/wallets.repository.js';
import { findWithdrawal, getWithdrawal, listWithdrawals } from '../repositories/withdrawals.repository.js';
import { approveLeg, cancelWithdrawal, createWithdrawal, type WithdrawalStep } from './withdrawal-changes.js';

const LIST = 'wallet-withdrawals';
const APPROVING_ROLES = new Set(['owner', 'admin']);
/** The token of a withdrawal or preview that names none, as the real API defaults it. */
const DEFAULT_TOKEN = 'usdc';

@Injectable()
export class WithdrawalsService {
  constructor(
    @Inject(PrismaService) private readonly prisma: PrismaService,
    @Inject(WalletEnvironment) private readonly env: WalletEnvironment,
    @Inject(OutboxRelayService) private readonly relay: OutboxRelayService,
    @Inject(WORK_WAKER) private readonly worker: WorkWaker,
  ) {}

  /** What a withdrawal to this chain and token would take and pay; without an amount, the most it can be. */
  /**
   * What a withdrawal to this chain and token would take and pay. Without an amount it answers
   * the liquidity question: nothing requested, the most withdrawable now, today's total.
   */
  async preview(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.withdrawalsPreview>): Promise<WithdrawalPreviewResponseDto> {
    const destination = this.destination(input, null);
    const wanted = input.amountUsd === undefined || input.amountUsd === null ? null : this.amountOf(input.amountUsd);
    const wallet = await findWallet(this.prisma, ctx.orgId, input.walletId);
    const now = new Date();
    const valued = valuePositions(wallet.positions, this.env.catalogue, this.env.timeScale, now);
    const ledger = Ledger.fromRows(wallet.id, valued.map(({ row, value, earned }) => ({ ...row, amount: value, earned, accruedAt: now })));
    const sources = payableFrom(ledger, destination, this.env);
    const withdrawable = sources.reduce((sum, source) => sum + source.available, 0n);
    this.checkFunds(wanted ?? 0n, withdrawable, ledger);
    const total = valued.reduce((sum, position) => sum + position.value, 0n);
    const draws = drawAmounts(sources, destination, wanted ?? withdrawable);
    return {
      amountRequestedUsd: wanted === null ? null : formatUsd(wanted),
      feeUsd: formatUsd(this.env.config.WALLET_WITHDRAWAL_FEE_USD),
      withdrawableUsd: formatUsd(withdrawable),
      totalUsdAfterWithdrawal: formatUsd(total - (wanted ?? 0n)),
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
    const result = await inTransaction(this.prisma, async (tx) => {
      const wallet = await lockWallet(tx, ctx.orgId, input.walletId);
      const claim = await claimRequestId(tx, {
        orgId: ctx.orgId,
        operation: 'wallet.withdraw',
        requestId: input.requestId,
        fingerprint: fingerprint({ walletId: wallet.id, ...destination, amount: amount.toString() }),
        resourceId: id,
      });
      if (!claim.fresh) return { withdrawal: await getWithdrawal(tx, claim.resourceId), created: false };
      if (policy.requireWhitelist) await this.checkWhitelisted(tx, ctx.orgId, destination);
      const ledger = await openLedger(tx, wallet.id, this.env, now);
      this.checkFunds(amount, payableFrom(ledger, destination, this.env).reduce((sum, source) => sum + source.available, 0n), ledger);
      const withdrawal = await createWithdrawal({ tx, wallet, ledger, env: this.env, now }, { id, destination, amount, fee, requestId: input.requestId });
      return { withdrawal, created: true };
    });
    if (result.created) this.wake();
    return withdrawalView(result.withdrawal);
  }

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.withdrawalsList>): Promise<WithdrawalListDto> {
    await requireWallet(this.prisma, ctx.orgId, input.walletId);
    const page = new NewestFirst(LIST, { walletId: input.walletId }, input);
    return page.page(await listWithdrawals(this.prisma, input.walletId, page), withdrawalView);
  }

  async get(ctx: RequestContext, input: WithdrawalRef): Promise<WithdrawalDto> {
    await requireWallet(this.prisma, ctx.orgId, input.walletId);
    return withdrawalView(await findWithdrawal(this.prisma, input.walletId, input.withdrawalId));
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

  private async change(ctx: RequestContext, input: WithdrawalRef, apply: (step: WithdrawalStep, row: Withdrawal) => Promise<Withdrawal>): Promise<WithdrawalDto> {
    const now = new Date();
    const row = await inTransaction(this.prisma, async (tx) => {
      const wallet = await lockWallet(tx, ctx.orgId, input.walletId);
      const found = await findWithdrawal(tx, wallet.id, input.withdrawalId);
      const ledger = await openLedger(tx, wallet.id, this.env, now);
      return apply({ tx, wallet, ledger, env: this.env, now }, found);
    });
    this.wake();
    return withdrawalView(row);
  }

  private wake(): void {
    this.relay.wake();
    this.worker.kick();
  }

  /** Destination chain and token (`usdc` unless given) of this environment (Stellar included) and, when given, its address. */
  private destination(input: { destinationChain: string; token?: string }, address: string | null): Destination {
    const { chain, token } = checkChainToken(input.destinationChain, input.token ?? DEFAULT_TOKEN, this.env.allChains);
    return { chain, token, address: address === null ? '' : checkAddress(chain, address) };
  }

  private amountOf(raw: string | number): bigint {
    const amount = parseUsd(raw);
    if (amount <= 0n) throw new ServiceError('validation_error', 'amountUsd must be greater than zero.');
    return amount;
  }

  private checkFunds(amount: bigint, withdrawable: bigint, ledger: Ledger): void {
    if (amount > withdrawable) {
      throw insufficientFunds(`${formatUsd(amount)} USD is more than the ${formatUsd(withdrawable)} USD withdrawable to this chain and token.`, balanceFigures(ledger.positions()));
    }
  }

  private async checkWhitelisted(tx: Tx, orgId: string, destination: Destination): Promise<void> {
    const entry = await findEntry(tx, orgId, destination.chain, addressKey(destination.chain, destination.address));
    if (!entry) {
      throw new ServiceError('address_book_whitelist_violation', `${destination.address} on ${destination.chain} is not in this organization's address book.`);
    }
  }
}
