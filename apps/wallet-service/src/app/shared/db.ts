import type { Prisma } from '../../generated/prisma/client.js';

/** The client inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;
