import { Controller, Inject } from '@nestjs/common';
import { type AllocatePreviewResponseDto, type AllocationResponseDto, SUBJECTS, type WireRequestOf } from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { RebalancesService } from './rebalances.service.js';

@Controller()
export class RebalancesMsController {
  constructor(@Inject(RebalancesService) private readonly rebalances: RebalancesService) {}

  @Handles(SUBJECTS.wallet.allocate)
  allocate({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.allocate>): Promise<AllocationResponseDto> {
    return this.rebalances.allocate(ctx, input);
  }

  @Handles(SUBJECTS.wallet.allocatePreview)
  preview({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.allocatePreview>): Promise<AllocatePreviewResponseDto> {
    return this.rebalances.preview(ctx, input);
  }
}
