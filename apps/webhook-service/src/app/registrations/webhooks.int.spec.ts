import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  ALL_ORGANIZATIONS,
  type DomainEvent,
  eventSubject,
  PORTFOLIO_WALLET_WEBHOOK_EVENTS,
  type RequestContext,
  type WebhookDeliveryEventDto,
} from '@service/contracts';
import { type InProcessService, startServiceInProcess } from '@service/service-testing';
import { webhookConfigSpec } from '../../config.js';
import { AppModule } from '../app.module.js';
import { DeliveriesService } from '../deliveries/deliveries.service.js';
import { PrismaService } from '../prisma.service.js';
import { DELIVERIES_DURABLE } from '../workers/event-consumer.js';
import { RegistrationsService } from './registrations.service.js';

/**
 * RegistrationsService and DeliveriesService in process, on their own migrated schema, NATS server
 * and event stream, delivering to a receiver on loopback: the use cases of the e2e suites
 * (`registrations.e2e.spec.ts`, `deliveries.e2e.spec.ts`) without a gateway, HTTP in front or a build.
 */
let service: InProcessService;
let registrations: RegistrationsService;
let deliveries: DeliveriesService;
let nats: NatsConnection;
let receiver: Server;
let receiverBase: string;
const received: { url: string; body: string; eventId: string }[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        url: request.url ?? '',
        body: Buffer.concat(chunks).toString(),
        eventId: String(request.headers['service-event-id']),
      });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  service = await startServiceInProcess({
    name: 'webhook',
    module: AppModule.forRoot,
    spec: webhookConfigSpec,
    env: {
      WEBHOOK_PRIVATE_HOST_ALLOWLIST: '127.0.0.1',
      WEBHOOK_DELIVERY_TIMEOUT_MS: '2000',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_EVENT_LINGER_MS: '0',
    },
  });
  registrations = service.running.app.get(RegistrationsService);
  deliveries = service.running.app.get(DeliveriesService);
  nats = await connect({ servers: service.env.NATS_URL });
});

afterAll(async () => {
  await nats?.close();
  await service?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

let orgs = 0;
let paths = 0;
const ctxOf = (orgId = `org_int_${(orgs += 1)}`): RequestContext => ({
  orgId,
  role: 'admin',
  principalId: `user_${orgId}`,
  requestId: randomUUID(),
});
const freshUrl = () => `${receiverBase}/hooks/receiver-${(paths += 1)}`;
const WITHDRAWAL = 'portfolio_wallet.withdrawal.status_changed';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NOT_FOUND = { name: 'ServiceError', code: 'webhook_not_found', message: 'Webhook not found.' };
const DUPLICATE = { name: 'ServiceError', code: 'webhook_duplicate_url', message: 'A webhook with this URL is already registered.' };

/** Polls until `check` answers something; fails after three seconds. */
async function waitFor<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (const started = Date.now(); Date.now() - started < 3_000; await new Promise((resolve) => setTimeout(resolve, 25))) {
    const value = await check();
    if (value !== undefined) return value;
  }
  throw new Error('not within 3 s');
}

/** An event on the run's stream, as wallet-service's outbox relay publishes it. */
async function publish(orgId: string, payload: object): Promise<DomainEvent> {
  const event: DomainEvent = { id: randomUUID(), type: WITHDRAWAL, orgId, source: 'wallet', occurredAt: new Date().toISOString(), payload };
  await jetstream(nats).publish(eventSubject(service.env.EVENTS_SUBJECT_PREFIX!, 'wallet', WITHDRAWAL), JSON.stringify(event), {
    msgID: event.id,
  });
  return event;
}

describe('registrations', () => {
  it('registers a receiver, shows its 64-hex secret only then, and reads it back', async () => {
    const ctx = ctxOf();
    const url = freshUrl();
    const created = await registrations.create(ctx, {
      family: 'webhooks',
      url,
      events: [WITHDRAWAL, WITHDRAWAL],
      description: 'Ledger sync',
    });
    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      url,
      events: [WITHDRAWAL],
      description: 'Ledger sync',
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: expect.stringMatching(ISO_MS),
    });
    await expect(registrations.get(ctx, { family: 'webhooks', id: created.id })).resolves.toEqual({
      id: created.id,
      url,
      events: [WITHDRAWAL],
      description: 'Ledger sync',
      createdAt: created.createdAt,
    });
    await expect(registrations.get(ctx, { family: 'gvault', id: created.id })).rejects.toMatchObject(NOT_FOUND);
    await expect(registrations.get(ctxOf(), { family: 'webhooks', id: created.id })).rejects.toMatchObject(NOT_FOUND);
  });

  it("lists an organization's registrations of one family newest first, in pages, without secrets", async () => {
    const ctx = ctxOf();
    const first = await registrations.create(ctx, { family: 'webhooks', url: freshUrl(), events: [WITHDRAWAL] });
    const second = await registrations.create(ctx, { family: 'webhooks', url: freshUrl(), events: [WITHDRAWAL] });
    await registrations.create(ctx, { family: 'gvault', url: freshUrl(), events: ['gvault.allowlist.updated'] });
    const page = await registrations.list(ctx, { family: 'webhooks', limit: 1 });
    expect(page.data.map((item) => item.id)).toEqual([second.id]);
    expect(page.data[0]).not.toHaveProperty('secret');
    const rest = await registrations.list(ctx, { family: 'webhooks', limit: 1, cursor: page.nextCursor! });
    expect(rest).toEqual({ data: [expect.objectContaining({ id: first.id })], nextCursor: null });
    await expect(registrations.list(ctxOf(), { family: 'webhooks' })).resolves.toEqual({ data: [], nextCursor: null });
  });

  it('refuses the same URL twice in one family of an organization, also when concurrent', async () => {
    const ctx = ctxOf();
    const url = freshUrl();
    const outcomes = await Promise.allSettled(
      [0, 1].map(() => registrations.create(ctx, { family: 'webhooks', url, events: [WITHDRAWAL] })),
    );
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({ reason: DUPLICATE });
    await expect(registrations.create(ctx, { family: 'webhooks', url, events: [WITHDRAWAL] })).rejects.toMatchObject(DUPLICATE);
    await expect(registrations.create(ctxOf(), { family: 'webhooks', url, events: [WITHDRAWAL] })).resolves.toMatchObject({ url });
  });

  it('refuses a receiver host that is private and not on the allowlist, without saying why', async () => {
    for (const url of ['http://10.0.0.1/hook', 'http://192.168.1.1/hook', 'http://[::1]/hook']) {
      await expect(registrations.create(ctxOf(), { family: 'webhooks', url, events: [WITHDRAWAL] })).rejects.toMatchObject({
        name: 'ServiceError',
        code: 'validation_error',
        message: 'url is not allowed: its host must resolve, and only to public addresses.',
      });
    }
  });

  it('updates url, events and description, and refuses a URL already taken or an unknown id', async () => {
    const ctx = ctxOf();
    const taken = await registrations.create(ctx, { family: 'webhooks', url: freshUrl(), events: [WITHDRAWAL] });
    const created = await registrations.create(ctx, { family: 'webhooks', url: freshUrl(), events: [WITHDRAWAL], description: 'old' });
    const url = freshUrl();
    const events = ['portfolio_wallet.deposit.status_changed'] as const;
    await expect(
      registrations.update(ctx, { family: 'webhooks', id: created.id, url, events: [...events], description: 'new' }),
    ).resolves.toEqual({
      id: created.id,
      url,
      events,
      description: 'new',
      createdAt: created.createdAt,
    });
    await expect(registrations.update(ctx, { family: 'webhooks', id: created.id, url: taken.url })).rejects.toMatchObject(DUPLICATE);
    await expect(registrations.update(ctx, { family: 'webhooks', id: randomUUID(), url: freshUrl() })).rejects.toMatchObject(NOT_FOUND);
    expect((await registrations.get(ctx, { family: 'webhooks', id: created.id })).url).toBe(url);
  });

  it('deletes: {id, deleted: true}, then gone from get, update and list, and the URL can be registered again', async () => {
    const ctx = ctxOf();
    const url = freshUrl();
    const { id } = await registrations.create(ctx, { family: 'webhooks', url, events: [WITHDRAWAL] });
    await expect(registrations.delete(ctx, { family: 'webhooks', id })).resolves.toEqual({ id, deleted: true });
    await expect(registrations.get(ctx, { family: 'webhooks', id })).rejects.toMatchObject(NOT_FOUND);
    await expect(registrations.delete(ctx, { family: 'webhooks', id })).rejects.toMatchObject(NOT_FOUND);
    await expect(registrations.update(ctx, { family: 'webhooks', id, description: 'x' })).rejects.toMatchObject(NOT_FOUND);
    await expect(registrations.list(ctx, { family: 'webhooks' })).resolves.toEqual({ data: [], nextCursor: null });
    await expect(registrations.create(ctx, { family: 'webhooks', url, events: [WITHDRAWAL] })).resolves.toMatchObject({ url });
  });
});

describe('the delivery feed', () => {
  /** The registration's feed once it holds `count` completed deliveries. */
  const completed = (ctx: RequestContext, id: string, count: number) =>
    waitFor(async () => {
      const { data } = await deliveries.list(ctx, { family: 'webhooks', id });
      return data.length === count && data.every((item) => item.status === 'completed') ? data : undefined;
    });

  it('delivers a consumed event to the subscribed receiver once and shows it in the feed', async () => {
    const ctx = ctxOf();
    const reg = await registrations.create(ctx, { family: 'webhooks', url: freshUrl(), events: [WITHDRAWAL] });
    const unsubscribed = await registrations.create(ctx, {
      family: 'webhooks',
      url: freshUrl(),
      events: ['portfolio_wallet.deposit.status_changed'],
    });
    const payload = {
      event: WITHDRAWAL,
      observedAt: new Date().toISOString(),
      walletId: randomUUID(),
      withdrawal: { id: randomUUID(), status: 'completed', amountRequestedUsd: '10.000000' },
    };
    await publish(ctx.orgId, payload);
    const [item] = (await completed(ctx, reg.id, 1)) as [WebhookDeliveryEventDto];
    expect(item).toEqual({
      id: expect.stringMatching(UUID),
      registrationId: reg.id,
      eventType: WITHDRAWAL,
      payload,
      status: 'completed',
      attemptCount: 1,
      deliveredAt: expect.any(String),
      lastError: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      registration: { id: reg.id, callbackUrl: reg.url },
      latestEmission: {
        id: expect.any(String),
        eventId: item.id,
        attemptNumber: 1,
        requestedAt: expect.any(String),
        completedAt: expect.any(String),
        responseStatus: 200,
        responseMs: expect.any(Number),
        errorMessage: null,
      },
    });
    const path = new URL(reg.url).pathname;
    expect(received.filter((request) => request.url === path)).toEqual([{ url: path, body: JSON.stringify(payload), eventId: item.id }]);
    await expect(deliveries.list(ctx, { family: 'webhooks' })).resolves.toEqual({ data: [item], nextCursor: null });
    await expect(deliveries.list(ctx, { family: 'webhooks', id: unsubscribed.id })).resolves.toEqual({ data: [], nextCursor: null });
    await expect(deliveries.list(ctxOf(), { family: 'webhooks', id: reg.id })).rejects.toMatchObject(NOT_FOUND);
  });

  it('queues a signed test delivery, re-delivers an event on request, and refuses an unknown event', async () => {
    const ctx = ctxOf();
    const reg = await registrations.create(ctx, { family: 'webhooks', url: freshUrl(), events: [WITHDRAWAL] });
    const queued = await deliveries.test(ctx, { family: 'webhooks', id: reg.id });
    expect(queued).toMatchObject({
      registrationId: reg.id,
      eventType: 'webhook.test',
      attemptCount: 0,
      registration: { id: reg.id, callbackUrl: reg.url },
    });
    const [delivered] = (await completed(ctx, reg.id, 1)) as [WebhookDeliveryEventDto];
    expect(delivered).toMatchObject({ id: queued.id, status: 'completed', attemptCount: 1 });
    expect(JSON.parse(received.find((request) => request.eventId === queued.id)?.body ?? '{}')).toEqual({
      event: 'webhook.test',
      observedAt: expect.any(String),
      webhookId: reg.id,
    });

    await expect(deliveries.retry(ctx, { family: 'webhooks', id: reg.id, eventId: queued.id })).resolves.toMatchObject({ id: queued.id });
    await waitFor(async () => (received.filter((request) => request.eventId === queued.id).length === 2 ? true : undefined));
    await expect(deliveries.retry(ctx, { family: 'webhooks', id: reg.id, eventId: randomUUID() })).rejects.toMatchObject({
      name: 'ServiceError',
      code: 'webhook_not_found',
      message: 'Webhook event not found.',
    });
    await expect(deliveries.test(ctxOf(), { family: 'webhooks', id: reg.id })).rejects.toMatchObject(NOT_FOUND);
  });
});

describe('internal events', () => {
  it('are acked without a delivery or a processed row, even for an organization subscribed to everything', async () => {
    const ctx = ctxOf();
    const reg = await registrations.create(ctx, { family: 'webhooks', url: freshUrl(), events: [...PORTFOLIO_WALLET_WEBHOOK_EVENTS] });
    const observed = (orgId: string): DomainEvent => ({
      id: randomUUID(),
      type: 'risk.metrics.observed',
      orgId,
      source: 'risk',
      occurredAt: new Date().toISOString(),
      payload: {
        observationId: randomUUID(),
        yieldSourceId: 'service-ustb-vault',
        orgId: orgId === ALL_ORGANIZATIONS ? null : orgId,
        metrics: { apy_bps: 400, tvl_usd: 1_000_000, available_withdrawal_liquidity_usd: 10_000 },
        recordedAt: new Date().toISOString(),
        expiresAt: null,
      },
    });
    const internal = [observed(ALL_ORGANIZATIONS), observed(ctx.orgId)];
    for (const event of internal) {
      await jetstream(nats).publish(
        eventSubject(service.env.EVENTS_SUBJECT_PREFIX!, 'risk', 'risk.metrics.observed'),
        JSON.stringify(event),
        {
          msgID: event.id,
        },
      );
    }
    // A webhook event after them: once it is delivered, the consumer has passed them.
    const after = await publish(ctx.orgId, {
      event: WITHDRAWAL,
      observedAt: new Date().toISOString(),
      walletId: randomUUID(),
      withdrawal: {},
    });
    await waitFor(async () => (received.some((request) => request.url === new URL(reg.url).pathname) ? true : undefined));
    const { data } = await deliveries.list(ctx, { family: 'webhooks', id: reg.id });
    expect(data.map((item) => item.eventType)).toEqual([WITHDRAWAL]);
    const prisma = service.running.app.get(PrismaService);
    const processed = await prisma.$queryRawUnsafe<{ event_id: string }[]>(
      'SELECT event_id::text FROM processed_events WHERE event_id = ANY ($1::uuid[])',
      [...internal, after].map((event) => event.id),
    );
    expect(processed).toEqual([{ event_id: after.id }]);
    const jsm = await jetstreamManager(nats);
    const info = await waitFor(async () => {
      const consumer = await jsm.consumers.info(service.env.EVENTS_STREAM!, DELIVERIES_DURABLE);
      return consumer.num_pending === 0 && consumer.num_ack_pending === 0 ? consumer : undefined;
    });
    expect(info.delivered.stream_seq).toBeGreaterThanOrEqual(3);
  });
});
