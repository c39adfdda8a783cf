import { Controller } from '@nestjs/common';
import { type GVaultAllowlistDto, SUBJECTS, type WireRequestOf } from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { AllowlistService } from './allowlist.service.js';

@Controller()
export class AllowlistMsController {
  constructor(private readonly allowlist: AllowlistService) {}

  @Handles(SUBJECTS.gvault.allowlistCheck)
  check(request: WireRequestOf<typeof SUBJECTS.gvault.allowlistCheck>): Promise<GVaultAllowlistDto> {
    return this.allowlist.check(request.address);
  }
}
