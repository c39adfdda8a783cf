import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type DepositAddressSetupDto, type RpcRequest, SUBJECTS } from '@service/contracts';
import { DepositAddressesService } from './deposit-addresses.service.js';

@Controller()
export class DepositAddressesMsController {
  constructor(@Inject(DepositAddressesService) private readonly depositAddresses: DepositAddressesService) {}

  @MessagePattern(SUBJECTS.wallet.depositAddressesEnable)
  enable(@Payload() { ctx, ...input }: RpcRequest<{ walletId: string; chain: string }>): Promise<DepositAddressSetupDto> {
    return this.depositAddresses.enable(ctx, input);
  }
}
