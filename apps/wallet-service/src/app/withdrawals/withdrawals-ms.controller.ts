import { Controller, Inject } from '@nestjs/common';
import {
  type PayoutLegDto,
  SUBJECTS,
  type WireRequestOf,
  type WithdrawalDto,
  type WithdrawalListDto,
  type WithdrawalPreviewResponseDto,
} from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { WithdrawalsService } from './withdrawals.service.js';

@Controller()
export class WithdrawalsMsController {
  constructor(@Inject(WithdrawalsService) private readonly withdrawals: WithdrawalsService) {}

  @Handles(SUBJECTS.wallet.withdrawalsPreview)
  preview({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.withdrawalsPreview>): Promise<WithdrawalPreviewResponseDto> {
    return this.withdrawals.preview(ctx, input);
  }

  @Handles(SUBJECTS.wallet.withdrawalsCreate)
  create({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.withdrawalsCreate>): Promise<WithdrawalDto> {
    return this.withdrawals.create(ctx, input);
  }

  @Handles(SUBJECTS.wallet.withdrawalsList)
  list({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.withdrawalsList>): Promise<WithdrawalListDto> {
    return this.withdrawals.list(ctx, input);
  }

  @Handles(SUBJECTS.wallet.withdrawalsGet)
  get({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.withdrawalsGet>): Promise<WithdrawalDto> {
    return this.withdrawals.get(ctx, input);
  }

  @Handles(SUBJECTS.wallet.withdrawalsCancel)
  cancel({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.withdrawalsCancel>): Promise<WithdrawalDto> {
    return this.withdrawals.cancel(ctx, input);
  }

  @Handles(SUBJECTS.wallet.payoutsRetry)
  retry({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.payoutsRetry>): Promise<PayoutLegDto> {
    return this.withdrawals.retryPayout(ctx, input);
  }

  @Handles(SUBJECTS.wallet.payoutsCancel)
  cancelPayout({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.payoutsCancel>): Promise<PayoutLegDto> {
    return this.withdrawals.cancelPayout(ctx, input);
  }
}
