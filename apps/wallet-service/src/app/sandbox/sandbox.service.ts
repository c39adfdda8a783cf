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

  /**
   * Stops this replica's clock at `at` (null lets it run again): money movements, accrual and the
   * accounting reports then happen at instants a test chose. Only where WALLET_CLOCK_CONTROL is on.
   */
  pinClock(at: string | null): { pinnedAt: string | null } {
    if (!this.env.sandbox || !this.env.config.WALLET_CLOCK_CONTROL) {
      throw new ServiceError(
        'operation_not_supported',
        'The clock can be pinned only in a sandbox started with WALLET_CLOCK_CONTROL=true.',
      );
    }
    const instant = at === null ? null : new Date(at);
    if (instant !== null && (typeof at !== 'string' || Number.isNaN(instant.getTime()))) {
      throw new ServiceError('validation_error', 'at must be an ISO 8601 date-time or null.');
    }
    this.env.pinClock(instant);
    return { pinnedAt: instant?.toISOString() ?? null };
  }

  async failNextPayout(orgId: string): Promise<{ orgId: string; armedAt: string }> {
    if (!this.env.sandbox) throw new ServiceError('operation_not_supported', 'Simulated payout failures exist only in the sandbox.');
    return { orgId, armedAt: (await armPayoutFailure(this.prisma, orgId, new Date())).toISOString() };
  }
}
