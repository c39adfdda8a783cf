import { Controller, Inject } from '@nestjs/common';
import { type GVaultYieldSourceListDto, SUBJECTS } from '@service/contracts';
import { Handles, SERVICE_CONFIG } from '@service/service-runtime';
import type { GVaultConfig } from '../../config.js';
import { catalogueFor } from './catalogue.js';

@Controller()
export class YieldSourcesMsController {
  private readonly catalogue: GVaultYieldSourceListDto;

  constructor(@Inject(SERVICE_CONFIG) config: GVaultConfig) {
    this.catalogue = { data: catalogueFor(config) };
  }

  @Handles(SUBJECTS.gvault.yieldSourcesList)
  list(): GVaultYieldSourceListDto {
    return this.catalogue;
  }
}
