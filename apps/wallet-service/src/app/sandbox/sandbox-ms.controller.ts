import { Controller, Inject } from '@nestjs/common';
import { SUBJECTS, type WireRequestOf } from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { SandboxService } from './sandbox.service.js';

@Controller()
export class SandboxMsController {
  constructor(@Inject(SandboxService) private readonly sandbox: SandboxService) {}

  /** Operator subject (the admin CLI): the organization of `ctx` has its next payout fail retryably. */
  @Handles(SUBJECTS.wallet.sandboxFailNextPayout)
  failNextPayout({ ctx }: WireRequestOf<typeof SUBJECTS.wallet.sandboxFailNextPayout>): Promise<{ orgId: string; armedAt: string }> {
    return this.sandbox.failNextPayout(ctx.orgId);
  }

  /** Operator subject (the admin CLI, end-to-end tests): this replica's clock stops at `at`, or runs again. */
  @Handles(SUBJECTS.wallet.sandboxPinClock)
  pinClock({ at }: WireRequestOf<typeof SUBJECTS.wallet.sandboxPinClock>): { pinnedAt: string | null } {
    return this.sandbox.pinClock(at);
  }
}
