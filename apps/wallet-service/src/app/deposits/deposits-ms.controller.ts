import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type DepositObject, type Page, type RpcRequest, SUBJECTS } from '@service/contracts';
import { DepositsService, type SimulateDepositInput } from './deposits.service.js';

@Controller()
export class DepositsMsController {
  constructor(@Inject(DepositsService) private readonly deposits: DepositsService) {}

  @MessagePattern(SUBJECTS.wallet.depositsSimulate)
  simulate(@Payload() { ctx, ...input }: RpcRequest<SimulateDepositInput>): Promise<DepositObject> {
    return this.deposits.simulate(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.depositsList)
  list(@Payload() { ctx, ...input }: RpcRequest<{ walletId: string; cursor?: string; limit?: string }>): Promise<Page<DepositObject>> {
    return this.deposits.list(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.depositsGet)
  get(@Payload() { ctx, ...input }: RpcRequest<{ walletId: string; depositId: string }>): Promise<DepositObject> {
    return this.deposits.get(ctx, input);
  }
}
