import { Controller, Inject } from '@nestjs/common';
import { type DepositAddressSetupDto, SUBJECTS, type WireRequestOf } from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { DepositAddressesService } from './deposit-addresses.service.js';

@Controller()
export class DepositAddressesMsController {
  constructor(@Inject(DepositAddressesService) private readonly depositAddresses: DepositAddressesService) {}

  @Handles(SUBJECTS.wallet.depositAddressesEnable)
  enable({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.depositAddressesEnable>): Promise<DepositAddressSetupDto> {
    return this.depositAddresses.enable(ctx, input);
  }
}
