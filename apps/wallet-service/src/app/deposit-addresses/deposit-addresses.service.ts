import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { DepositAddressSetupDto, RequestContext, RequestOf, SUBJECTS } from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { Wallet } from '../../generated/prisma/client.js';
import { policyFrom } from '../approvals/policy-in-force.js';
import { deriveDepositAddresses } from '../domain/addresses/deposit-addresses.js';
import { setupView } from '../domain/deposit-address-view.js';
import { approvalChanged } from '../domain/wallet-events.js';
import { WalletFeature } from '../environment/wallet-feature.js';
import { addActivity, readApprovalRules } from '../repositories/approvals.repository.js';
import { addStartSetup, findSetup } from '../repositories/deposit-address-approvals.repository.js';
import type { WalletTx } from '../repositories/wallet-sql.js';
import { lockWallet } from '../repositories/wallets.repository.js';
import { Writes } from '../repositories/writes.js';

/** A setup in one of these states is not started again: it waits for its vote or is done. */
const LIVE = new Set(['pending', 'approved']);

@Injectable()
export class DepositAddressesService extends WalletFeature {
  /**
   * Enables the deposit address of a chain that needs it (Stellar): starts the one-time setup as
   * a pending activity the organization's approvers vote on (announced through
   * `portfolio_wallet.approval.status_changed`); repeating it returns the current state, and after
   * a reject or an expired deadline starts a new activity. Without approvers: `approvers_required`.
   * Every other chain is `unsupported_chain`.
   */
  async enable(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.depositAddressesEnable>): Promise<DepositAddressSetupDto> {
    if (input.chain !== this.env.stellarChain) {
      throw new ServiceError(
        'unsupported_chain',
        `Only ${this.env.stellarChain} deposit addresses are enabled here; ${input.chain} needs no enabling or does not exist.`,
      );
    }
    const now = new Date();
    // PgPoolSql: the lock, the setup, the approvers and policy; then the activity, the setup and its event with COMMIT.
    const view = await this.sql.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, ctx.orgId, input.walletId);
      if (wallet.status === 'creating' || wallet.status === 'failed') {
        throw new ServiceError(
          'operation_not_supported',
          `Wallet ${wallet.id} is ${wallet.status}; enable deposit addresses once it is provisioned.`,
        );
      }
      const existing = await findSetup(tx, wallet.id, input.chain);
      if (existing && LIVE.has(existing.status)) return setupView(existing, wallet);
      return setupView(await this.start(tx, wallet, input.chain, existing, now), wallet);
    });
    this.publishAndRun();
    return view;
  }

  /** A new approvers' activity for the setup, valid for WALLET_APPROVAL_TTL_MS, with the policy's quorum (at most the approvers there are). */
  private async start(tx: WalletTx, wallet: Wallet, chain: string, existing: Awaited<ReturnType<typeof findSetup>>, now: Date) {
    const { approvers, policy: stored } = await readApprovalRules(tx, wallet.orgId);
    if (approvers === 0) {
      throw new ServiceError(
        'approvers_required',
        `The ${chain} deposit address is set up through the organization's approvers: register an approver key (POST /v2/approvals/approvers), subscribe to portfolio_wallet.approval.status_changed, then enable it again.`,
      );
    }
    const policy = policyFrom(stored, this.env, wallet.orgId);
    const setupId = existing?.id ?? randomUUID();
    const validBefore = new Date(now.getTime() + this.env.config.WALLET_APPROVAL_TTL_MS);
    const address = deriveDepositAddresses(this.env.seed, wallet.id, [chain])[chain] ?? null;
    const writes = new Writes();
    const activity = addActivity(writes, {
      orgId: wallet.orgId,
      walletId: wallet.id,
      kind: 'deposit_address_setup',
      quorum: Math.min(policy.quorum, approvers),
      subject: {
        withdrawalId: null,
        withdrawalLegId: null,
        destinationChain: chain,
        destinationToken: 'usdc',
        destinationAddress: address,
        plannedSourceNativeUnits: null,
        displayAmountNativeUnits: null,
        txChain: chain,
      },
      setupId,
      validBefore,
      now,
    });
    const row = addStartSetup(writes, { id: setupId, wallet, chain, activityId: activity.id, dueAt: validBefore, now, existing });
    writes.addEvent(approvalChanged(row, now));
    await writes.run(tx);
    return row;
  }
}
