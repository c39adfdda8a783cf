import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type AllocatePreviewResponseDto, type AllocationResponseDto, type RpcRequest, SUBJECTS } from '@service/contracts';
import { type AllocateInput, RebalancesService } from './rebalances.service.js';

@Controller()
export class RebalancesMsController {
  constructor(@Inject(RebalancesService) private readonly rebalances: RebalancesService) {}

  @MessagePattern(SUBJECTS.wallet.allocate)
  allocate(@Payload() { ctx, ...input }: RpcRequest<AllocateInput>): Promise<AllocationResponseDto> {
    return this.rebalances.allocate(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.allocatePreview)
  preview(@Payload() { ctx, ...input }: RpcRequest<Omit<AllocateInput, 'requestId'>>): Promise<AllocatePreviewResponseDto> {
    return this.rebalances.preview(ctx, input);
  }
}
