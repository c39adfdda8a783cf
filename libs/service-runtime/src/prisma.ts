import { PrismaPg } from '@prisma/adapter-pg';

/**
 * The driver adapter for one service's schema. Model queries are qualified by `schema`; the
 * search path makes raw SQL (outbox, processed events) land in the same schema.
 */
export function prismaAdapter(databaseUrl: string, schema: string, poolSize = 10): PrismaPg {
  return new PrismaPg(
    { connectionString: databaseUrl, options: `-c search_path="${schema}"`, max: poolSize },
    { schema },
  );
}
