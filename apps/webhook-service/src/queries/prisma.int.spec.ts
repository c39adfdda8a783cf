import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NewestFirst } from '@service/pagination';
import { prismaQueriesFileDifferences, RecordingPrisma, type SqlFileEntry } from '@service/testing';
import { PrismaClient } from '../generated/prisma/client.js';
import { DeliveriesRepository } from '../app/repositories/deliveries.repository.js';
import { type NewRegistration, RegistrationsRepository } from '../app/repositories/registrations.repository.js';

/**
 * The statements webhook-service runs through Prisma's model API, as text: each repository method
 * that uses it is called with representative inputs on the service's Prisma client over a freshly
 * migrated schema, what Prisma sent (its query events) is compared with
 * `src/queries/prisma/<module>.sql` (`UPDATE_SQL=1` writes the files), and the schema is dropped.
 * The raw statements (advisory locks, requeue, the test delivery, the delivery path) are
 * `queries.spec.ts`'s, in `src/queries/<module>.sql`.
 */
let prisma: RecordingPrisma<PrismaClient>;
const ran = (call: string, work: () => Promise<unknown>) => prisma.entry(call, work);

beforeAll(async () => {
  prisma = await RecordingPrisma.start('webhook-service', (options) => new PrismaClient(options));
});

afterAll(async () => {
  await prisma?.stop();
});

const ORG = 'org_a';
const FAMILY = 'webhooks';
const AFTER = { createdAt: new Date('2026-11-20T10:00:00.000Z'), id: '3f6c1d2e-8a4b-4c5d-9e6f-7a8b9c0d1e2f' };
const registration = (id: string, url: string): NewRegistration => ({
  id,
  orgId: ORG,
  family: FAMILY,
  url,
  events: ['portfolio_wallet.deposit.status_changed'],
  description: { team: 'treasury' },
  secretEnc: 'v2.sealed-secret',
});
const REGISTRATION = registration('5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11', 'https://example.com/hooks');
const FED = registration('7c2e0d4f-1d7b-4a68-8e4c-3a1a2d8b9f22', 'https://example.com/feed');
const DELIVERY = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const UNKNOWN = 'c0ffee00-0000-4000-8000-000000000001';

/** A first page and a page after a cursor of a newest-first list. */
function newestFirst(list: string): { first: NewestFirst; next: NewestFirst } {
  const first = new NewestFirst(list, {}, { limit: 2 });
  return { first, next: new NewestFirst(list, {}, { cursor: first.cursorOf(AFTER), limit: 2 }) };
}

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  'deliveries.repository': async () => {
    const repository = new DeliveriesRepository(prisma.client as never);
    // A delivery with an attempt, older than the cursor: the feed's pages load its registration and emission.
    await prisma.client.registration.create({ data: { ...FED, description: FED.description as never } });
    await prisma.client.delivery.create({
      data: {
        id: DELIVERY,
        orgId: ORG,
        family: FAMILY,
        registrationId: FED.id,
        eventType: 'portfolio_wallet.deposit.status_changed',
        body: '{}',
        status: 'delivered',
        createdAt: new Date('2026-11-19T10:00:00.000Z'),
      },
    });
    await prisma.client.emission.create({
      data: { id: UNKNOWN, deliveryId: DELIVERY, attemptNumber: 1, requestedAt: new Date('2026-11-19T10:00:01.000Z'), responseStatus: 200 },
    });
    const { first, next } = newestFirst('deliveries');
    return [
      await ran('DeliveriesRepository.feed(orgId, family, no registration, the first page, limit 2)', () =>
        repository.feed(ORG, FAMILY, undefined, first),
      ),
      await ran('DeliveriesRepository.feed(orgId, family, registrationId, a page after a cursor, limit 2)', () =>
        repository.feed(ORG, FAMILY, FED.id, next),
      ),
      await ran('DeliveriesRepository.find(registrationId, id), found', () => repository.find(FED.id, DELIVERY)),
      await ran('DeliveriesRepository.find(registrationId, id), not found', () => repository.find(FED.id, UNKNOWN)),
    ];
  },
  'registrations.repository': async () => {
    const repository = new RegistrationsRepository(prisma.client as never);
    const { first, next } = newestFirst('registrations');
    return [
      await ran('RegistrationsRepository.transaction(tx => countActive(tx, orgId, family))', () =>
        repository.transaction((tx) => repository.countActive(tx, ORG, FAMILY)),
      ),
      await ran('RegistrationsRepository.transaction(tx => hasActiveUrl(tx, orgId, family, url))', () =>
        repository.transaction((tx) => repository.hasActiveUrl(tx, ORG, FAMILY, REGISTRATION.url)),
      ),
      await ran('RegistrationsRepository.transaction(tx => create(tx, row))', () =>
        repository.transaction((tx) => repository.create(tx, REGISTRATION)),
      ),
      await ran('RegistrationsRepository.findActive(orgId, family, id)', () => repository.findActive(ORG, FAMILY, REGISTRATION.id)),
      await ran('RegistrationsRepository.list(orgId, family, the first page, limit 2)', () => repository.list(ORG, FAMILY, first)),
      await ran('RegistrationsRepository.list(orgId, family, a page after a cursor, limit 2)', () => repository.list(ORG, FAMILY, next)),
      await ran('RegistrationsRepository.transaction(tx => update(tx, id, {url, events, description}))', () =>
        repository.transaction((tx) =>
          repository.update(tx, REGISTRATION.id, { url: 'https://example.com/hooks/v2', events: ['*'], description: null }),
        ),
      ),
      await ran('RegistrationsRepository.transaction(tx => update(tx, id, {events}))', () =>
        repository.transaction((tx) => repository.update(tx, REGISTRATION.id, { events: ['portfolio_wallet.deposit.status_changed'] })),
      ),
      await ran('RegistrationsRepository.transaction(tx => update(tx, id, {events, secrets re-sealed}))', () =>
        repository.transaction((tx) =>
          repository.update(tx, REGISTRATION.id, { events: ['*'], secretEnc: 'v2.resealed', previousSecretEnc: 'v2.resealed-previous' }),
        ),
      ),
      await ran('RegistrationsRepository.transaction(tx => rotateSecret(tx, id, secrets))', () =>
        repository.transaction((tx) =>
          repository.rotateSecret(tx, REGISTRATION.id, {
            secretEnc: 'v2.rotated',
            previousSecretEnc: 'v2.resealed',
            previousSecretExpiresAt: new Date('2026-11-22T10:00:00.000Z'),
          }),
        ),
      ),
      await ran('RegistrationsRepository.transaction(tx => deactivate(tx, registrationId, reason))', () =>
        repository.transaction((tx) => repository.deactivate(tx, REGISTRATION.id, 'registration deleted')),
      ),
    ];
  },
};

describe('the statements webhook-service runs through Prisma, as text in src/queries/prisma', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    const dir = fileURLToPath(new URL('./prisma/', import.meta.url));
    expect(await prismaQueriesFileDifferences(dir, 'src/queries/prisma.int.spec.ts', prisma, files)).toEqual([]);
  });
});
