import { Injectable } from '@nestjs/common';
import type { DepositAddressSetupDto, RequestContext, RequestOf, SUBJECTS } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { setupView } from '../domain/deposit-address-view.js';
import { WalletFeature } from '../environment/wallet-feature.js';
import { inTransaction } from '../repositories/db.js';
import { startApproval } from '../repositories/deposit-address-approvals.repository.js';
import { lockWallet } from '../repositories/wallets.repository.js';

@Injectable()
export class DepositAddressesService extends WalletFeature {

  /**
   * Enables the deposit address of a chain that needs it (Stellar): starts the one-time setup,
   * announced through `portfolio_wallet.approval.status_changed`; repeating it returns the
   * current state. Every other chain is `unsupported_chain`.
   */
  async enable(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.depositAddressesEnable>): Promise<DepositAddressSetupDto> {
    if (input.chain !== this.env.stellarChain) {
      throw new ServiceError('unsupported_chain', `Only ${this.env.stellarChain} deposit addresses are enabled here; ${input.chain} needs no enabling or does not exist.`);
    }
    const now = new Date();
    const view = await inTransaction(this.prisma, async (tx) => {
      const wallet = await lockWallet(tx, ctx.orgId, input.walletId);
      if (wallet.status === 'creating' || wallet.status === 'failed') {
        throw new ServiceError('operation_not_supported', `Wallet ${wallet.id} is ${wallet.status}; enable deposit addresses once it is provisioned.`);
      }
      const dueAt = new Date(now.getTime() + this.env.config.WALLET_STELLAR_SETUP_MS);
      return setupView(await startApproval(tx, { wallet, chain: input.chain, dueAt, now }), wallet);
    });
    this.publishAndRun();
    return view;
  }
}
