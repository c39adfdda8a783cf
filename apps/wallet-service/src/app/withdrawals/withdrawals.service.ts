import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type {
  PayoutLegDto,
  RequestContext,
  RequestOf,
  SUBJECTS,
  WithdrawalDto,
  WithdrawalListDto,
  WithdrawalPreviewResponseDto,
  WithdrawalRef,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { formatUsd, parseUsd } from '@service/money';
import { KeysetPage } from '@service/pagination';
import type { Wallet, Withdrawal } from '../../generated/prisma/client.js';
import { addressKey, checkAddress } from '../domain/addresses/payout-address.js';
import { balanceFigures, insufficientFunds } from '../domain/errors.js';
import { fingerprint, type Operation } from '../domain/idempotency.js';
import { listFiltersOf } from '../domain/list-filters.js';
import { Ledger } from '../domain/ledger.js';
import { type Destination, drawAmounts } from '../domain/payout-plan.js';
import { checkChainToken } from '../domain/positions.js';
import { processingEstimate } from '../domain/processing-estimate.js';
import { valuePositions } from '../domain/wallet-view.js';
import { checkLimit, policyOf } from '../domain/withdrawal-policy.js';
import { payableFrom } from '../domain/withdrawal-progress.js';
import { legView, withdrawalView } from '../domain/withdrawal-view.js';
import { WalletFeature } from '../environment/wallet-feature.js';
import { hasEntry } from '../repositories/address-book.repository.js';
import { lockWalletAndClaim, lockWalletAndClaimThen, rememberResponse } from '../repositories/idempotency-keys.repository.js';
import { ledgerWithRunningQuery, openLedger } from '../repositories/positions.repository.js';
import { findWallet, lockWallet, requireWallet } from '../repositories/wallets.repository.js';
import { findWithdrawal, getWithdrawal, listWithdrawals } from '../repositories/withdrawals.repository.js';
import type { WalletTx } from '../repositories/wallet-sql.js';
import { cancelLeg, cancelWithdrawal, createWithdrawal, retryLeg, type WithdrawalStep } from './withdrawal-changes.js';

const LIST = 'wallet-withdrawals';
/** The token of a withdrawal or preview that names none, as the real API defaults it. */
const DEFAULT_TOKEN = 'usdc';

@Injectable()
export class WithdrawalsService extends WalletFeature {
  /** What a withdrawal to this chain and token would take and pay; without an amount, the most it can be. */
  /**
   * What a withdrawal to this chain and token would take and pay. Without an amount it answers
   * the liquidity question: nothing requested, the most withdrawable now, today's total.
   */
  async preview(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.withdrawalsPreview>): Promise<WithdrawalPreviewResponseDto> {
    const destination = this.destination(input, null);
    const wanted = input.amountUsd === undefined || input.amountUsd === null ? null : this.amountOf(input.amountUsd);
    const wallet = await findWallet(this.sql, ctx.orgId, input.walletId);
    const now = this.env.now();
    const valued = valuePositions(wallet.positions, this.env.catalogue, this.env.timeScale, now);
    const ledger = Ledger.fromRows(
      wallet.id,
      valued.map(({ row, value, earned }) => ({ ...row, amount: value, earned, accruedAt: now })),
    );
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
      processingEstimate: processingEstimate(
        draws.map((draw) => draw.positionId),
        this.env.catalogue,
      ),
    };
  }

  /** A withdrawal, idempotent on requestId: checks, policy, funds, then one payout leg per source drawn on. */
  async create(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.withdrawalsCreate>): Promise<WithdrawalDto> {
    const destination = this.destination(input, input.destinationAddress);
    const amount = this.amountOf(input.amountUsd);
    const fee = this.env.config.WALLET_WITHDRAWAL_FEE_USD;
    if (amount <= fee)
      throw new ServiceError('validation_error', `amountUsd must be more than the withdrawal fee of ${formatUsd(fee)} USD.`);
    const policy = policyOf(this.env.config.WALLET_WITHDRAWAL_POLICIES, ctx.orgId, this.env.sandbox);
    checkLimit(policy, amount, this.env.sandbox);
    const now = this.env.now();
    const id = randomUUID();
    // PgPoolSql, two round trips (three with a whitelist): BEGIN, the key claimed, the wallet locked
    // and its positions read with what else runs on it; then every write (the wallet's status
    // among them) and COMMIT.
    const result = await this.sql.$transaction(async (tx) => {
      const { wallet, claim, then } = await lockWalletAndClaimThen(
        tx,
        input.walletId,
        {
          orgId: ctx.orgId,
          operation: 'wallet.withdraw',
          requestId: input.requestId,
          fingerprint: fingerprint({ walletId: input.walletId.toLowerCase(), ...destination, amount: amount.toString() }),
          resourceId: id,
        },
        ledgerWithRunningQuery(input.walletId.toLowerCase(), this.env, now),
      );
      if (!claim.fresh) return { withdrawal: await getWithdrawal(tx, claim.resourceId), created: false };
      if (policy.requireWhitelist) await this.checkWhitelisted(tx, ctx.orgId, destination);
      const { ledger, running } = then;
      this.checkFunds(
        amount,
        payableFrom(ledger, destination, this.env).reduce((sum, source) => sum + source.available, 0n),
        ledger,
      );
      const withdrawal = await createWithdrawal(
        tx,
        { wallet, ledger, env: this.env, now },
        { id, destination, amount, fee, requestId: input.requestId, running },
      );
      return { withdrawal, created: true };
    });
    if (result.created) this.publishAndRun();
    return withdrawalView(result.withdrawal);
  }

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.withdrawalsList>): Promise<WithdrawalListDto> {
    await requireWallet(this.prisma, ctx.orgId, input.walletId);
    const filters = listFiltersOf(input, { walletId: input.walletId });
    const page = new KeysetPage(LIST, filters.bound, input, { order: filters.order });
    return page.page(await listWithdrawals(this.prisma, input.walletId, filters.where, page), withdrawalView);
  }

  async get(ctx: RequestContext, input: WithdrawalRef): Promise<WithdrawalDto> {
    await requireWallet(this.prisma, ctx.orgId, input.walletId);
    return withdrawalView(await findWithdrawal(this.sql, input.walletId, input.withdrawalId));
  }

  /** Cancels a withdrawal before any of its payouts is broadcast; a replay of its requestId answers the first result. */
  cancel(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.withdrawalsCancel>): Promise<WithdrawalDto> {
    return this.idempotent(ctx, input, 'withdrawal.cancel', input.withdrawalId, async (step, row) =>
      withdrawalView(await cancelWithdrawal(step, row)),
    );
  }

  /** Runs a retryably failed payout leg again (owners and admins); idempotent on requestId. */
  retryPayout(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.payoutsRetry>): Promise<PayoutLegDto> {
    return this.idempotent(ctx, input, 'payout.retry', input.payoutId, async (step, row) =>
      legView((await retryLeg(step, row, input.payoutId)).leg),
    );
  }

  /** Cancels a payout leg not yet broadcast (owners and admins); idempotent on requestId. */
  cancelPayout(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.payoutsCancel>): Promise<PayoutLegDto> {
    return this.idempotent(ctx, input, 'payout.cancel', input.payoutId, async (step, row) =>
      legView((await cancelLeg(step, row, input.payoutId)).leg),
    );
  }

  /** One change to a withdrawal under the wallet lock (PgPoolSql), answered as `apply` answers. */
  private async change<T>(
    ctx: RequestContext,
    input: WithdrawalRef,
    apply: (step: WithdrawalStep, row: Withdrawal) => Promise<T>,
  ): Promise<T> {
    const result = await this.sql.$transaction(async (tx) =>
      this.applyLocked(tx, await lockWallet(tx, ctx.orgId, input.walletId), input, apply),
    );
    this.publishAndRun();
    return result;
  }

  private async applyLocked<T>(
    tx: WalletTx,
    wallet: Wallet,
    input: WithdrawalRef,
    apply: (step: WithdrawalStep, row: Withdrawal) => Promise<T>,
  ): Promise<T> {
    const now = this.env.now();
    const found = await findWithdrawal(tx, wallet.id, input.withdrawalId);
    const ledger = await openLedger(tx, wallet.id, this.env, now);
    return apply({ tx, wallet, ledger, env: this.env, now }, found);
  }

  /**
   * {@link change}, idempotent on the body's requestId when there is one: the first answer is kept
   * with the key, and a replay answers it again without changing anything. The key is claimed and
   * the wallet locked in one statement.
   */
  private async idempotent<T extends object>(
    ctx: RequestContext,
    input: WithdrawalRef & { readonly requestId?: string },
    operation: Operation,
    resourceId: string,
    apply: (step: WithdrawalStep, row: Withdrawal) => Promise<T>,
  ): Promise<T> {
    const { requestId } = input;
    if (requestId === undefined) return this.change(ctx, input, apply);
    const key = { orgId: ctx.orgId, operation, requestId };
    const response = await this.sql.$transaction(async (tx) => {
      const { wallet, claim } = await lockWalletAndClaim(tx, input.walletId, {
        ...key,
        fingerprint: fingerprint({ walletId: input.walletId, withdrawalId: input.withdrawalId, resourceId }),
        resourceId,
      });
      if (!claim.fresh) return claim.response as T;
      const first = await this.applyLocked(tx, wallet, input, apply);
      await rememberResponse(tx, key, first);
      return first;
    });
    this.publishAndRun();
    return response;
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
      throw insufficientFunds(
        `${formatUsd(amount)} USD is more than the ${formatUsd(withdrawable)} USD withdrawable to this chain and token.`,
        balanceFigures(ledger.positions()),
      );
    }
  }

  private async checkWhitelisted(tx: WalletTx, orgId: string, destination: Destination): Promise<void> {
    if (!(await hasEntry(tx, orgId, destination.chain, addressKey(destination.chain, destination.address)))) {
      throw new ServiceError(
        'address_book_whitelist_violation',
        `${destination.address} on ${destination.chain} is not in this organization's address book.`,
      );
    }
  }
}
