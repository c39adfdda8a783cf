import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type Page, type RpcRequest, SUBJECTS, type WalletDto, type WalletYieldDto } from '@service/contracts';
import { type CreateWalletInput, WalletsService } from './wallets.service.js';

@Controller()
export class WalletsMsController {
  constructor(@Inject(WalletsService) private readonly wallets: WalletsService) {}

  @MessagePattern(SUBJECTS.wallet.walletsCreate)
  create(@Payload() { ctx, ...input }: RpcRequest<CreateWalletInput>): Promise<WalletDto> {
    return this.wallets.create(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.walletsList)
  list(@Payload() { ctx, ...input }: RpcRequest<{ cursor?: string; limit?: string }>): Promise<Page<WalletDto>> {
    return this.wallets.list(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.walletsGet)
  get(@Payload() { ctx, walletId }: RpcRequest<{ walletId: string }>): Promise<WalletDto> {
    return this.wallets.get(ctx, walletId);
  }

  @MessagePattern(SUBJECTS.wallet.walletsUpdate)
  update(@Payload() { ctx, ...input }: RpcRequest<{ walletId: string; label: string }>): Promise<WalletDto> {
    return this.wallets.updateLabel(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.strategyUpdate)
  updateStrategy(@Payload() { ctx, ...input }: RpcRequest<{ walletId: string; requestId: string; allocations: unknown }>): Promise<WalletDto> {
    return this.wallets.updateStrategy(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.yieldGet)
  yield(@Payload() { ctx, walletId }: RpcRequest<{ walletId: string }>): Promise<WalletYieldDto> {
    return this.wallets.yield(ctx, walletId);
  }
}
