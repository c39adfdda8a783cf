import type { Prisma } from '../../generated/prisma/client.js';
import type { PrismaService } from './prisma.service.js';

/** The client inside an interactive transaction; outside one, the service's client serves too. */
export type Tx = Prisma.TransactionClient;

/** Runs `work` in one interactive transaction: it commits when `work` resolves, rolls back when it throws. */
export function inTransaction<T>(prisma: PrismaService, work: (tx: Tx) => Promise<T>): Promise<T> {
  return prisma.$transaction(work);
}
