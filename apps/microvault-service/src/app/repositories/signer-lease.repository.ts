import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG } from '@service/service-runtime';
import type { MicroVaultConfig } from '../../config.js';
import { PrismaService } from '../prisma.service.js';

/**
 * Only one replica signs with the operator key at a time, or two of them would hand out the same
 * nonce. The holder renews the single lease row before it expires; another replica takes it
 * over only once it has expired (a crashed holder) or was released (a clean shutdown).
 */
@Injectable()
export class SignerLeaseRepository {
  readonly holder = randomUUID();

  constructor(
    private readonly prisma: PrismaService,
    @Inject(SERVICE_CONFIG) private readonly config: MicroVaultConfig,
  ) {}

  /** Takes or renews the lease; true while this process holds it. */
  async acquire(): Promise<boolean> {
    const rows = await this.prisma.$queryRawUnsafe<{ holder: string }[]>(
      `INSERT INTO signer_lease (id, holder, expires_at)
       VALUES (1, $1, now() + make_interval(secs => $2::double precision / 1000))
       ON CONFLICT (id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE signer_lease.holder = EXCLUDED.holder OR signer_lease.expires_at < now()
       RETURNING holder`,
      this.holder,
      this.config.MICROVAULT_SIGNER_LEASE_MS,
    );
    return rows.length === 1;
  }

  async release(): Promise<void> {
    await this.prisma.$executeRawUnsafe('DELETE FROM signer_lease WHERE holder = $1', this.holder);
  }
}
