import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ServiceError } from '@service/errors';
import { WalletFeature } from '../environment/wallet-feature.js';
import { armPayoutFailure } from '../repositories/sandbox-payout-failures.repository.js';

/**
 * Sandbox switches for integrators' tests: make an organization's next payout leg fail
 * retryably, so the retry and cancel routes can be exercised end to end. Armed by
 * `WALLET_SANDBOX_FAIL_NEXT_PAYOUT` at boot or by the operator subject (the admin CLI).
 */
@Injectable()
export class SandboxService extends WalletFeature implements OnApplicationBootstrap {
  async onApplicationBootstrap(): Promise<void> {
    if (!this.env.sandbox) return;
    for (const orgId of this.env.config.WALLET_SANDBOX_FAIL_NEXT_PAYOUT) await armPayoutFailure(this.prisma, orgId, new Date());
  }

  async failNextPayout(orgId: string): Promise<{ orgId: string; armedAt: string }> {
    if (!this.env.sandbox) throw new ServiceError('operation_not_supported', 'Simulated payout failures exist only in the sandbox.');
    return { orgId, armedAt: (await armPayoutFailure(this.prisma, orgId, new Date())).toISOString() };
  }
}
