import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Vault } from '../../generated/prisma/client.js';
import { PrismaService } from '../prisma.service.js';

/** The vault contracts this service deployed, each owned by one organization. */
@Injectable()
export class VaultsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The organization's vault; null for an unknown vault or another organization's. */
  findInOrg(orgId: string, vaultId: string): Promise<Vault | null> {
    return this.prisma.vault.findFirst({ where: { id: vaultId, orgId } });
  }

  create(vault: { orgId: string; chainId: number; address: string; deployTxHash: string }): Promise<Vault> {
    return this.prisma.vault.create({ data: { id: randomUUID(), ...vault } });
  }
}
