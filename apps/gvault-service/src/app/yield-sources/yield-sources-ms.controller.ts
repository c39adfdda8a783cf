import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { type GVaultYieldSourceListDto, SUBJECTS } from '@service/contracts';
import { SERVICE_CONFIG } from '@service/service-runtime';
import type { GVaultConfig } from '../../config.js';
import { catalogueFor } from './catalogue.js';

@Controller()
export class YieldSourcesMsController {
  private readonly catalogue: GVaultYieldSourceListDto;

  constructor(@Inject(SERVICE_CONFIG) config: GVaultConfig) {
    this.catalogue = { data: catalogueFor(config) };
  }

  @MessagePattern(SUBJECTS.gvault.yieldSourcesList)
  list(): GVaultYieldSourceListDto {
    return this.catalogue;
  }
}
