import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { DepositDto, DepositListDto, RequestContext, RequestOf, SUBJECTS } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { parseUsd } from '@service/money';
import { NewestFirst } from '@service/pagination';
import { OutboxRelayService } from '@service/service-runtime';
import { PrismaService } from '../prisma.service.js';
import { deriveDepositAddresses } from '../addresses/deposit-addresses.js';
import { simulatedTxHash } from '../addresses/tx-hash.js';
import { emitWalletEvent } from '../shared/events.js';
import { checkChainToken, tokensOf } from '../shared/positions.js';
import { WalletEnvironment } from '../shared/wallet-environment.js';
import { lockWallet, walletNotFound } from '../shared/wallet-lock.js';
import { depositView } from './deposit-view.js';

const LIST = 'wallet-deposits';

/** A plausible sender on the deposit's chain: a fresh address of the chain's own format. */
function senderAddress(chain: string): string {
  return deriveDepositAddresses(randomBytes(32), randomUUID(), [chain])[chain] ?? '';
}

@Injectable()
export class DepositsService {
  constructor(
    @Inject(PrismaService) private readonly prisma: PrismaService,
    @Inject(WalletEnvironment) private readonly env: WalletEnvironment,
    @Inject(OutboxRelayService) private readonly relay: OutboxRelayService,
  ) {}

  /** Sandbox only: a deposit that settles after the configured delay. */
  async simulate(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.depositsSimulate>): Promise<DepositDto> {
    if (!this.env.sandbox) throw new ServiceError('operation_not_supported', 'Deposit simulation exists only in the sandbox.');
    const amount = parseUsd(input.amountUsd);
    if (amount <= 0n) throw new ServiceError('validation_error', 'amountUsd must be greater than zero.');
    const chain = input.chain ?? this.env.chains[0] ?? '';
    const { token } = checkChainToken(chain, input.token ?? tokensOf(chain)[0] ?? '', this.env.allChains);
    const now = new Date();
    const deposit = await this.prisma.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, ctx.orgId, input.walletId);
      if (wallet.status === 'creating' || wallet.status === 'failed') {
        throw new ServiceError('operation_not_supported', `Wallet ${wallet.id} is ${wallet.status} and has no deposit addresses yet.`);
      }
      if (!(chain in (wallet.depositAddresses as Record<string, string>))) {
        throw new ServiceError('unsupported_chain', `Wallet ${wallet.id} has no ${chain} deposit address; enable it first.`);
      }
      const row = await tx.deposit.create({
        data: {
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
        },
      });
      await emitWalletEvent(tx, { orgId: ctx.orgId, walletId: wallet.id, observedAt: now }, 'portfolio_wallet.deposit.status_changed', {
        deposit: depositView(row),
      });
      return row;
    });
    this.relay.wake();
    return depositView(deposit);
  }

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.depositsList>): Promise<DepositListDto> {
    await this.requireWallet(ctx, input.walletId);
    const page = new NewestFirst(LIST, { walletId: input.walletId }, input);
    const rows = await this.prisma.deposit.findMany({
      where: {
        walletId: input.walletId,
        ...page.where,
      },
      orderBy: page.orderBy,
      take: page.take,
    });
    return page.page(rows, depositView);
  }

  async get(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.depositsGet>): Promise<DepositDto> {
    await this.requireWallet(ctx, input.walletId);
    const row = await this.prisma.deposit.findFirst({ where: { id: input.depositId, walletId: input.walletId } });
    if (!row) throw new ServiceError('deposit_not_found', `Deposit ${input.depositId} was not found.`);
    return depositView(row);
  }

  private async requireWallet(ctx: RequestContext, walletId: string): Promise<void> {
    const found = await this.prisma.wallet.count({ where: { id: walletId, orgId: ctx.orgId } });
    if (found === 0) throw walletNotFound(walletId);
  }
}
