import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { ALL_ORGANIZATIONS, type DomainEvent } from '@service/contracts';
import { metricsText } from '@service/metrics';
import { queriesFileDifferences, RecordingSql, type SqlFileEntry, unrecordedRawSqlFunctions } from '@service/testing';
import { DeliveriesRepository } from '../app/repositories/deliveries.repository.js';
import { type ClaimedDelivery, claimDue, recordAttempt, recordAttempts } from '../app/repositories/delivery-store.js';
import { fanOut, UnsubscribedPairs } from '../app/repositories/fan-out.js';
import { RegistrationsRepository } from '../app/repositories/registrations.repository.js';
import { watchDueBacklog } from '../app/workers/delivery-metrics.js';

/**
 * Every statement webhook-service runs raw, as text: each function is called with representative
 * inputs on a `RecordingSql`, and what it ran is compared with `src/queries/<module>.sql`
 * (`UPDATE_SQL=1` writes the files). Prisma's model API (registrations, the feed) is not here.
 */
const sql = new RecordingSql();
/** The recorder where a function takes `PgPoolSql` or its transaction (`PgSqlExecutor` of @service/sql), which it stands in for. */
const pg = sql as never;
const ran = (call: string, work: () => Promise<unknown>) => sql.entry(call, work);

const REGISTRATION = '3f6c1d2e-8a4b-4c5d-9e6f-7a8b9c0d1e2f';
const DELIVERY = '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11';
const event = (orgId: string, type: string): DomainEvent => ({
  id: '0e0c6a3b-7d1f-4a58-9b6e-3c2d1e0f9a88',
  type: type as DomainEvent['type'],
  orgId,
  source: 'wallet',
  occurredAt: '2026-11-21T10:00:00.000Z',
  payload: { event: type },
});
const claimed: ClaimedDelivery = {
  id: DELIVERY,
  registration_id: REGISTRATION,
  attempt_count: 1,
  event_type: 'portfolio_wallet.deposit.status_changed',
  body: '{}',
  emission_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  url: 'https://receiver.example/hooks',
  org_id: 'org_a',
  secret_enc: 'enc',
  previous_secret_enc: null,
  registration_deleted: false,
  trace_context: null,
};
const attempt = (status: number | null) => ({
  delivery: claimed,
  responseStatus: status,
  responseMs: 3,
  error: status === 200 ? null : `HTTP ${status}`,
});

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  'fan-out': async () => [
    await ran("fanOut(db, 'webhook-deliveries', [an event of org_a, one of ALL_ORGANIZATIONS], traceContexts, unsubscribed)", () =>
      fanOut(
        pg,
        'webhook-deliveries',
        [
          event('org_a', 'portfolio_wallet.deposit.status_changed'),
          { ...event(ALL_ORGANIZATIONS, 'gvault.allowlist.updated'), id: DELIVERY },
        ],
        new Map(),
        new UnsubscribedPairs(),
      ),
    ),
  ],
  'delivery-store': async () => [
    await ran('claimDue(db, limit 64, caps {perEndpoint 8, perOrganization 32}, leaseMs 30000, answered [one delivery])', () =>
      claimDue(pg, 64, { perEndpoint: 8, perOrganization: 32 }, 30_000, [DELIVERY]),
    ),
    await ran('recordAttempts(db, [an attempt answered 200: completed, one answered 503: retry in 5 s])', () =>
      recordAttempts(pg, [
        { attempt: attempt(200), completion: { kind: 'completed' } },
        { attempt: attempt(503), completion: { kind: 'retry', delayMs: 5_000 } },
      ]),
    ),
    await ran('recordAttempt(db, an attempt answered 410, failed and disabling the registration)', () =>
      recordAttempt(pg, attempt(410), { kind: 'failed', disableRegistration: true }),
    ),
  ],
  'deliveries.repository': async () => {
    const repository = new DeliveriesRepository(sql as never);
    return [
      await ran('DeliveriesRepository.requeue(registrationId, id)', () => repository.requeue(REGISTRATION, DELIVERY)),
      await ran("DeliveriesRepository.insert({id, orgId, family 'webhooks', registrationId, eventType 'webhook.test', body})", () =>
        repository.insert({
          id: DELIVERY,
          orgId: 'org_a',
          family: 'webhooks',
          registrationId: REGISTRATION,
          eventType: 'webhook.test',
          body: '{}',
        }),
      ),
    ];
  },
  'registrations.repository': async () => {
    const repository = new RegistrationsRepository(sql as never);
    return [
      await ran("RegistrationsRepository.lockFamily(tx, 'org_a', 'webhooks')", () =>
        repository.lockFamily(sql as never, 'org_a', 'webhooks'),
      ),
      await ran("RegistrationsRepository.lockUrl(tx, 'org_a', 'webhooks', url)", () =>
        repository.lockUrl(sql as never, 'org_a', 'webhooks', 'https://receiver.example/hooks'),
      ),
      await ran('RegistrationsRepository.lockSecrets(tx, registrationId)', () => repository.lockSecrets(sql as never, REGISTRATION)),
    ];
  },
  'delivery-metrics': async () => [
    await ran('watchDueBacklog(sql), sampled by a scrape (metricsText())', async () => {
      const stop = watchDueBacklog(sql);
      try {
        await metricsText();
      } finally {
        stop();
      }
    }),
  ],
};

describe('the statements of webhook-service, as text in src/queries', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    expect(await queriesFileDifferences(fileURLToPath(new URL('.', import.meta.url)), 'src/queries/queries.spec.ts', files)).toEqual([]);
  });

  it('name every exported function of src/app that runs raw SQL', () => {
    expect(unrecordedRawSqlFunctions(fileURLToPath(new URL('../..', import.meta.url)))).toEqual([]);
  });
});
