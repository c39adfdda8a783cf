import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type Page, type RpcRequest, SUBJECTS, type WithdrawalObject, type WithdrawalPreviewResponseDto } from '@service/contracts';
import { type PreviewInput, type WithdrawalRef, WithdrawalsService, type WithdrawInput } from './withdrawals.service.js';

@Controller()
export class WithdrawalsMsController {
  constructor(@Inject(WithdrawalsService) private readonly withdrawals: WithdrawalsService) {}

  @MessagePattern(SUBJECTS.wallet.withdrawalsPreview)
  preview(@Payload() { ctx, ...input }: RpcRequest<PreviewInput>): Promise<WithdrawalPreviewResponseDto> {
    return this.withdrawals.preview(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.withdrawalsCreate)
  create(@Payload() { ctx, ...input }: RpcRequest<WithdrawInput>): Promise<WithdrawalObject> {
    return this.withdrawals.create(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.withdrawalsList)
  list(@Payload() { ctx, ...input }: RpcRequest<{ walletId: string; cursor?: string; limit?: string }>): Promise<Page<WithdrawalObject>> {
    return this.withdrawals.list(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.withdrawalsGet)
  get(@Payload() { ctx, ...input }: RpcRequest<WithdrawalRef>): Promise<WithdrawalObject> {
    return this.withdrawals.get(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.withdrawalsCancel)
  cancel(@Payload() { ctx, ...input }: RpcRequest<WithdrawalRef>): Promise<WithdrawalObject> {
    return this.withdrawals.cancel(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.payoutsApprove)
  approve(@Payload() { ctx, ...input }: RpcRequest<WithdrawalRef & { legIndex: number }>): Promise<WithdrawalObject> {
    return this.withdrawals.approve(ctx, input);
  }
}
