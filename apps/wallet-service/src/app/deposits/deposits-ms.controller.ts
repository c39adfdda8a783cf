import { Controller, Inject } from '@nestjs/common';
import { type DepositDto, type DepositListDto, SUBJECTS, type WireRequestOf } from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { DepositsService } from './deposits.service.js';

@Controller()
export class DepositsMsController {
  constructor(@Inject(DepositsService) private readonly deposits: DepositsService) {}

  @Handles(SUBJECTS.wallet.depositsSimulate)
  simulate({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.depositsSimulate>): Promise<DepositDto> {
    return this.deposits.simulate(ctx, input);
  }

  @Handles(SUBJECTS.wallet.depositsList)
  list({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.depositsList>): Promise<DepositListDto> {
    return this.deposits.list(ctx, input);
  }

  @Handles(SUBJECTS.wallet.depositsLookup)
  lookup({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.depositsLookup>): Promise<DepositDto> {
    return this.deposits.lookup(ctx, input);
  }

  @Handles(SUBJECTS.wallet.depositsGet)
  get({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.depositsGet>): Promise<DepositDto> {
    return this.deposits.get(ctx, input);
  }
}
