import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type GVaultAllowlistDto, type RpcRequest, SUBJECTS } from '@service/contracts';
import { AllowlistService } from './allowlist.service.js';

@Controller()
export class AllowlistMsController {
  constructor(private readonly allowlist: AllowlistService) {}

  @MessagePattern(SUBJECTS.gvault.allowlistCheck)
  check(@Payload() request: RpcRequest<{ gVaultId?: unknown; address?: unknown }>): Promise<GVaultAllowlistDto> {
    return this.allowlist.check(request);
  }
}
