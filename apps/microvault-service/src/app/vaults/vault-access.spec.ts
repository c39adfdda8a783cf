import { describe, expect, it } from '@jest/globals';
import type { MicroVaultConfig } from '../../config.js';
import type { PrismaService } from '../prisma.service.js';
import { OrganizationsRepository } from '../repositories/organizations.repository.js';
import { VaultsRepository } from '../repositories/vaults.repository.js';
import { VaultAccess } from './vault-access.js';

/** Stands in for the database: one enabled organization owning one vault. */
const prisma = {
  organization: { findUnique: async ({ where }: { where: { orgId: string } }) => (where.orgId === 'org_on' ? { orgId: 'org_on' } : null) },
  vault: {
    findFirst: async ({ where }: { where: { id: string; orgId: string } }) =>
      where.orgId === 'org_on' && where.id === 'v1' ? { id: 'v1' } : null,
  },
} as unknown as PrismaService;

const access = (env: 'sandbox' | 'production') =>
  new VaultAccess(new OrganizationsRepository(prisma), new VaultsRepository(prisma), { SERVICE_ENV: env } as MicroVaultConfig);

describe('VaultAccess', () => {
  it('refuses every organization in production with microvaults_not_enabled', async () => {
    await expect(access('production').requireVault('org_on', 'v1')).rejects.toMatchObject({ code: 'microvaults_not_enabled', status: 403 });
  });

  it('refuses an organization that is not enabled, before looking at the vault', async () => {
    await expect(access('sandbox').requireVault('org_off', 'v1')).rejects.toMatchObject({ code: 'microvaults_not_enabled' });
  });

  it("reports another organization's or an unknown vault as vault_not_found", async () => {
    await expect(access('sandbox').requireVault('org_on', 'v2')).rejects.toMatchObject({ code: 'vault_not_found', status: 404 });
    await expect(access('sandbox').requireVault('org_on', 'v1')).resolves.toMatchObject({ id: 'v1' });
  });
});
