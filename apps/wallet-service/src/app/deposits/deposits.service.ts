import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { DepositDto, DepositListDto, RequestContext, RequestOf, SUBJECTS } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { parseUsd } from '@service/money';
import { KeysetPage } from '@service/pagination';
import type { Deposit } from '../../generated/prisma/client.js';
import { deriveDepositAddresses } from '../domain/addresses/deposit-addresses.js';
import { normalizedTxHash, simulatedTxHash } from '../domain/addresses/tx-hash.js';
import { depositView } from '../domain/deposit-view.js';
import { listFiltersOf } from '../domain/list-filters.js';
import { checkChainToken, tokensOf } from '../domain/positions.js';
import { depositChanged } from '../domain/wallet-events.js';
import { WalletFeature } from '../environment/wallet-feature.js';
import { createDeposit, findDeposit, findDepositByTxHash, listDeposits } from '../repositories/deposits.repository.js';
import { lockWallet, requireWallet } from '../repositories/wallets.repository.js';

const LIST = 'wallet-deposits';

/** A plausible sender on the deposit's chain: a fresh address of the chain's own format. */
function senderAddress(chain: string): string {
  return deriveDepositAddresses(randomBytes(32), randomUUID(), [chain])[chain] ?? '';
}

@Injectable()
export class DepositsService extends WalletFeature {
  /** Sandbox only: a deposit that settles after the configured delay. */
  async simulate(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.depositsSimulate>): Promise<DepositDto> {
    if (!this.env.sandbox) throw new ServiceError('operation_not_supported', 'Deposit simulation exists only in the sandbox.');
    const amount = parseUsd(input.amountUsd);
    if (amount <= 0n) throw new ServiceError('validation_error', 'amountUsd must be greater than zero.');
    const chain = input.chain ?? this.env.chains[0] ?? '';
    const { token } = checkChainToken(chain, input.token ?? tokensOf(chain)[0] ?? '', this.env.allChains);
    const now = this.env.now();
    // PgPoolSql: the lock, then the deposit and its event (`deposit.status_changed`, processing) with COMMIT.
    const deposit = await this.sql.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, ctx.orgId, input.walletId);
      if (wallet.status === 'creating' || wallet.status === 'failed') {
        throw new ServiceError('operation_not_supported', `Wallet ${wallet.id} is ${wallet.status} and has no deposit addresses yet.`);
      }
      if (!(chain in (wallet.depositAddresses as Record<string, string>))) {
        throw new ServiceError('unsupported_chain', `Wallet ${wallet.id} has no ${chain} deposit address; enable it first.`);
      }
      const row: Deposit = {
        id: randomUUID(),
        walletId: wallet.id,
        orgId: ctx.orgId,
        amount,
        token,
        chain,
        fromAddress: senderAddress(chain),
        txHash: simulatedTxHash(chain),
        status: 'processing',
        settleAt: new Date(now.getTime() + this.env.config.WALLET_DEPOSIT_SETTLEMENT_MS),
        createdAt: now,
        completedAt: null,
      };
      await createDeposit(tx, row, [depositChanged(row, now)]);
      return row;
    });
    this.publishEvents();
    return depositView(deposit);
  }

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.depositsList>): Promise<DepositListDto> {
    await requireWallet(this.prisma, ctx.orgId, input.walletId);
    const filters = listFiltersOf(input, { walletId: input.walletId });
    const page = new KeysetPage(LIST, filters.bound, input, { order: filters.order });
    return page.page(await listDeposits(this.prisma, input.walletId, filters.where, page), depositView);
  }

  /** The wallet's deposit with this transaction id (on `chain`, when given); `deposit_not_found` otherwise. */
  async lookup(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.depositsLookup>): Promise<DepositDto> {
    await requireWallet(this.prisma, ctx.orgId, input.walletId);
    if (input.chain !== undefined && !this.env.allChains.includes(input.chain)) {
      throw new ServiceError(
        'unsupported_chain',
        `Chain ${input.chain} is not one of this environment's chains (${this.env.allChains.join(', ')}).`,
      );
    }
    return depositView(await findDepositByTxHash(this.prisma, input.walletId, normalizedTxHash(input.txHash), input.chain));
  }

  async get(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.depositsGet>): Promise<DepositDto> {
    await requireWallet(this.prisma, ctx.orgId, input.walletId);
    return depositView(await findDeposit(this.prisma, input.walletId, input.depositId));
  }
}
