import { Controller, Inject } from '@nestjs/common';
import { SUBJECTS, type WalletDto, type WalletListDto, type WalletYieldDto, type WireRequestOf } from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { WalletsService } from './wallets.service.js';

@Controller()
export class WalletsMsController {
  constructor(@Inject(WalletsService) private readonly wallets: WalletsService) {}

  @Handles(SUBJECTS.wallet.walletsCreate)
  create({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.walletsCreate>): Promise<WalletDto> {
    return this.wallets.create(ctx, input);
  }

  @Handles(SUBJECTS.wallet.walletsList)
  list({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.walletsList>): Promise<WalletListDto> {
    return this.wallets.list(ctx, input);
  }

  @Handles(SUBJECTS.wallet.walletsGet)
  get({ ctx, walletId }: WireRequestOf<typeof SUBJECTS.wallet.walletsGet>): Promise<WalletDto> {
    return this.wallets.get(ctx, walletId);
  }

  @Handles(SUBJECTS.wallet.walletsUpdate)
  update({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.walletsUpdate>): Promise<WalletDto> {
    return this.wallets.updateLabel(ctx, input);
  }

  @Handles(SUBJECTS.wallet.strategyUpdate)
  updateStrategy({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.strategyUpdate>): Promise<WalletDto> {
    return this.wallets.updateStrategy(ctx, input);
  }

  @Handles(SUBJECTS.wallet.yieldGet)
  yield({ ctx, walletId }: WireRequestOf<typeof SUBJECTS.wallet.yieldGet>): Promise<WalletYieldDto> {
    return this.wallets.yield(ctx, walletId);
  }
}
