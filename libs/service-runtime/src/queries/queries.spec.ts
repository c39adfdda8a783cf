import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { queriesFileDifferences, RecordingSql, type SqlFileEntry } from '@service/testing';
import { HealthService } from '../health.js';

/**
 * The statements this lib runs in every service, as text: each is run on a `RecordingSql` through
 * the lib's own classes, and what it ran is compared with `src/queries/<module>.sql`
 * (`UPDATE_SQL=1` writes the files). The outbox's, the relay's and the consumers' are those of
 * `@service/events` (libs/events/src/queries).
 */
const sql = new RecordingSql();
const ran = (call: string, work: () => Promise<unknown>) => sql.entry(call, work);
const connection = { isClosed: () => false } as NatsConnection;

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  health: async () => [
    await ran("HealthService.check(): the readiness of the health subject (the gateway's /readyz), on an open NATS connection", () =>
      new HealthService('wallet', sql, connection).check(),
    ),
  ],
};

describe('the statements of @service/service-runtime, as text in src/queries', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    expect(await queriesFileDifferences(fileURLToPath(new URL('.', import.meta.url)), 'src/queries/queries.spec.ts', files)).toEqual([]);
  });
});
