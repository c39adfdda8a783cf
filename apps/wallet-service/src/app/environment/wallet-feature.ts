import { Inject } from '@nestjs/common';
import { OutboxRelayService } from '@service/service-runtime';
import { WORK_WAKER, type WorkWaker } from '../injection.js';
import { PrismaService } from '../repositories/prisma.service.js';
import { WalletSql } from '../repositories/wallet-sql.js';
import { WalletEnvironment } from './wallet-environment.js';

/**
 * What every feature service of the wallet service works with: the database (through Prisma, and
 * through `PgPoolSql` (postgres.js) for the hottest routes), the environment,
 * and the two ways to hand work on once a transaction has committed. Each feature extends it, so
 * the wiring is written once.
 */
export abstract class WalletFeature {
  constructor(
    @Inject(PrismaService) protected readonly prisma: PrismaService,
    @Inject(WalletEnvironment) protected readonly env: WalletEnvironment,
    @Inject(OutboxRelayService) private readonly relay: OutboxRelayService,
    @Inject(WORK_WAKER) private readonly worker: WorkWaker,
    @Inject(WalletSql) protected readonly sql: WalletSql,
  ) {}

  /** The committed transaction wrote events: publish them now rather than at the relay's next poll. */
  protected publishEvents(): void {
    this.relay.wake();
  }

  /** The committed transaction made work due for the workflow worker: look for it now. */
  protected runDueWork(): void {
    this.worker.kick();
  }

  /** Both: events to publish and work that is due. */
  protected publishAndRun(): void {
    this.publishEvents();
    this.runDueWork();
  }
}
