import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GTokenEventType, PayoutLeg, PortfolioWalletEventType, WebhookDeliveryEventDto } from '@service/contracts';
import {
  type GVaultAllowlistUpdatedEvent,
  type PortfolioWalletEvent,
  type PortfolioWalletEventResources,
  verifyWebhook,
  WebhookVerificationError,
} from '@service/sdk';
import { Webhook } from 'standardwebhooks';
import {
  type Answer,
  api,
  familyOf,
  Receiver,
  rejection,
  sdkOf,
  startWebhookSystem,
  TEST_TIMEOUT_MS,
  waitFor,
  type WebhookTestSystem,
  withdrawalPayload,
} from './support.js';

let ws: WebhookTestSystem;
let receiver: Receiver;
let orgs = 0;

beforeAll(async () => {
  receiver = await new Receiver().start();
  ws = await startWebhookSystem();
}, 60_000);

afterAll(async () => {
  await ws?.stop();
  await receiver?.stop();
}, 30_000);

const WITHDRAWAL = 'portfolio_wallet.withdrawal.status_changed';

/** A fresh organization with one registration of `family` pointing at a scripted receiver URL. */
async function register(options: { answers?: Answer[]; events?: string[]; path?: string } = {}) {
  const org = `org_delivery_${(orgs += 1)}`;
  const token = await ws.token(org);
  const url = receiver.url(options.answers);
  const path = options.path ?? '/v2/webhooks';
  const family = familyOf(sdkOf(ws.gateway, token), path);
  const created = await family.create({ url, events: options.events ?? [WITHDRAWAL] });
  return { org, token, url, path, family, id: created.id, secret: created.secret };
}

type Registered = Awaited<ReturnType<typeof register>>;

async function feed(reg: Registered, limit = 100): Promise<WebhookDeliveryEventDto[]> {
  return (await reg.family.events(reg.id, { limit }).page()).data as WebhookDeliveryEventDto[];
}

const settled = (reg: Registered, count: number, status = 'completed') =>
  waitFor(async () => {
    const items = await feed(reg);
    return items.length === count && items.every((item) => item.status === status) ? items : undefined;
  });

/** True when A and B are the same type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

describe('the SDK types of delivered bodies', () => {
  it('name the same event types as the contracts (the SDK imports no server code, so they are declared twice)', () => {
    const walletEvents: Same<PortfolioWalletEvent['event'], PortfolioWalletEventType> = true;
    const gtokenEvents: Same<GVaultAllowlistUpdatedEvent['type'], GTokenEventType> = true;
    const payoutLeg: Same<
      keyof PortfolioWalletEventResources['portfolio_wallet.withdrawal.payout.status_changed']['payoutLeg'],
      keyof PayoutLeg
    > = true;
    expect([walletEvents, gtokenEvents, payoutLeg]).toEqual([true, true, true]);
  });
});

describe('delivery', () => {
  it('POSTs the exact payload once to a subscribed receiver with headers both signature schemes verify', async () => {
    const reg = await register();
    const payload = withdrawalPayload();
    await ws.publish(reg.org, WITHDRAWAL, payload);
    const [item] = await settled(reg, 1);
    if (!item) throw new Error('no delivery');
    // Completed: no attempt follows; wait for the receiver to have recorded the ones made.
    await waitFor(() => receiver.at(reg.url).length >= item.attemptCount);
    const requests = receiver.at(reg.url);
    // One request per attempt the history records: 1 on a quiet machine; under heavy load the
    // receiver can miss the test timeout (TEST_TIMEOUT_MS), and the cut attempt is retried (at least once,
    // never more often than the history says).
    expect(requests).toHaveLength(item.attemptCount);
    const [request] = requests;
    if (!request) throw new Error('no delivery');
    expect(JSON.parse(request.body)).toEqual(payload);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['service-event-id']).toBe(item.id);
    expect(request.headers['service-event-type']).toBe(WITHDRAWAL);

    const headers = request.headers as Record<string, string>;
    expect(new Webhook(`whsec_${Buffer.from(reg.secret).toString('base64')}`).verify(request.body, headers)).toEqual(payload);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(headers['service-signature'] ?? '') ?? [];
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(10);
    expect(v1).toBe(createHmac('sha256', reg.secret).update(`${t}.${request.body}`).digest('hex'));
    expect(headers['webhook-id']).toBe(item.id);

    // The SDK's verifier on the delivery as webhook-service made it: both schemes, then each way it must refuse.
    expect(verifyWebhook({ payload: request.body, headers, secret: reg.secret })).toEqual(payload);
    const { 'service-signature': _, ...standardOnly } = headers;
    expect(verifyWebhook({ payload: Buffer.from(request.body), headers: standardOnly, secret: reg.secret })).toEqual(payload);
    const refusals = [
      [{ payload: request.body.replace('"completed"', '"failed"'), headers, secret: reg.secret }, 'invalid_signature'],
      [{ payload: request.body.replace('"completed"', '"failed"'), headers: standardOnly, secret: reg.secret }, 'invalid_signature'],
      [{ payload: request.body, headers, secret: 'f'.repeat(64) }, 'invalid_signature'],
      [{ payload: request.body, headers, secret: reg.secret, now: Date.now() + 600_000 }, 'timestamp_out_of_tolerance'],
      [{ payload: request.body, headers: standardOnly, secret: reg.secret, now: Date.now() - 600_000 }, 'timestamp_out_of_tolerance'],
    ] as const;
    for (const [options, reason] of refusals) {
      const refused = (() => {
        try {
          verifyWebhook(options);
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(refused).toBeInstanceOf(WebhookVerificationError);
      expect(refused).toMatchObject({ reason });
    }

    expect(item).toEqual({
      id: item.id,
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
    expect(await reg.family.events().toArray()).toEqual([item]);
  });

  it('sends nothing to unsubscribed, deleted or other organizations’ registrations', async () => {
    const subscribed = await register();
    const unsubscribed = await api(ws.gateway, subscribed.token, 'POST', '/v2/webhooks', {
      url: receiver.url(),
      events: ['portfolio_wallet.status_changed'],
    });
    const deletedUrl = receiver.url();
    const deleted = await api(ws.gateway, subscribed.token, 'POST', '/v2/webhooks', { url: deletedUrl, events: [WITHDRAWAL] });
    await api(ws.gateway, subscribed.token, 'DELETE', `/v2/webhooks/${String(deleted.body['id'])}`);
    const other = await register();

    await ws.publish(subscribed.org, WITHDRAWAL, withdrawalPayload());
    await settled(subscribed, 1);
    // One statement records an event's deliveries to every registration it reaches: the others
    // have none now, so none can be sent later.
    expect(await ws.deliveriesOf([String(unsubscribed.body['id']), String(deleted.body['id']), other.id])).toBe(0);
    expect(receiver.at(String(unsubscribed.body['url']))).toHaveLength(0);
    expect(receiver.at(deletedUrl)).toHaveLength(0);
    expect(receiver.at(other.url)).toHaveLength(0);
  });

  it('delivers gtoken events in the {id, type, createdAt, data} envelope', async () => {
    const reg = await register({ path: '/v2/gvaults/webhooks', events: ['gvault.allowlist.updated'] });
    const data = {
      gVaultId: 'service-ustb-vault',
      chain: 'ethereum_sepolia',
      address: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238',
      allowed: true,
      blockNumber: '7',
      txHash: `0x${'ab'.repeat(32)}`,
    };
    const event = await ws.publish(reg.org, 'gvault.allowlist.updated', data, 'gvault');
    const [item] = await settled(reg, 1);
    const [request] = receiver.at(reg.url);
    expect(JSON.parse(request?.body ?? '{}')).toEqual({
      id: item?.id,
      type: 'gvault.allowlist.updated',
      createdAt: event.occurredAt,
      data,
    });
    expect(request?.headers['service-event-id']).toBe(item?.id);
    expect(item?.payload).toEqual(JSON.parse(request?.body ?? '{}'));
  });
});

describe('retries', () => {
  it('retries a 500 with the same event id and completes on the 200', async () => {
    const reg = await register({ answers: [500, 200] });
    await ws.publish(reg.org, WITHDRAWAL, withdrawalPayload());
    const [item] = await settled(reg, 1);
    const requests = receiver.at(reg.url);
    expect(requests).toHaveLength(2);
    expect(new Set(requests.map((request) => request.headers['service-event-id']))).toEqual(new Set([item?.id]));
    expect(requests[0]?.body).toBe(requests[1]?.body);
    expect(item).toMatchObject({
      status: 'completed',
      attemptCount: 2,
      lastError: null,
      latestEmission: { attemptNumber: 2, responseStatus: 200 },
    });
  });

  it('fails a 400 for good without retrying', async () => {
    const reg = await register({ answers: [400] });
    await ws.publish(reg.org, WITHDRAWAL, withdrawalPayload());
    // 'failed' is final: nothing schedules another attempt.
    const [item] = await settled(reg, 1, 'failed');
    expect(receiver.at(reg.url)).toHaveLength(1);
    expect(item).toMatchObject({
      attemptCount: 1,
      deliveredAt: null,
      lastError: 'HTTP 400',
      latestEmission: { responseStatus: 400, errorMessage: 'HTTP 400' },
    });
  });

  it('cuts a receiver that never answers at the timeout and schedules a retry', async () => {
    const reg = await register({ answers: ['hang'] });
    await ws.publish(reg.org, WITHDRAWAL, withdrawalPayload());
    const [item] = await waitFor(async () => {
      const items = await feed(reg);
      return items[0]?.status === 'retry_scheduled' && items[0].latestEmission?.completedAt ? items : undefined;
    });
    // Retries come due within milliseconds here, so the attempt seen may be the first or a later one.
    expect(item?.latestEmission).toMatchObject({ responseStatus: null, errorMessage: `timed out after ${TEST_TIMEOUT_MS} ms` });
    expect(item?.lastError).toBe(`timed out after ${TEST_TIMEOUT_MS} ms`);
    expect(item?.latestEmission?.responseMs).toBeGreaterThanOrEqual(TEST_TIMEOUT_MS - 5);
    expect(item?.latestEmission?.responseMs).toBeLessThan(TEST_TIMEOUT_MS + 1_000);
    await reg.family.remove(reg.id);
  });

  it('keeps other receivers fast while one never answers', async () => {
    const slow = await register({ answers: ['hang'] });
    const fast = await register();
    for (let index = 0; index < 20; index += 1) await ws.publish(slow.org, WITHDRAWAL, withdrawalPayload());
    // Every one of them hanging at the slow receiver (20 is below the per-endpoint cap).
    await waitFor(() => receiver.at(slow.url).length >= 20);
    const started = Date.now();
    await ws.publish(fast.org, WITHDRAWAL, withdrawalPayload());
    await settled(fast, 1);
    expect(Date.now() - started).toBeLessThan(TEST_TIMEOUT_MS);
    await slow.family.remove(slow.id);
  });

  it('stops scheduled retries when the registration is deleted', async () => {
    const reg = await register({ answers: [503] });
    await ws.publish(reg.org, WITHDRAWAL, withdrawalPayload());
    await waitFor(() => receiver.at(reg.url).length >= 2);
    await reg.family.remove(reg.id);
    const count = receiver.at(reg.url).length;
    // Deleting ends the schedule: the delivery turns failed (a failed delivery is never claimed again),
    // and at most the attempt already in flight still arrives.
    const delivery = await waitFor(async () => {
      const latest = (await reg.family.events().page()).data[0];
      return latest?.status === 'failed' ? latest : undefined;
    });
    expect(delivery).toMatchObject({ status: 'failed', lastError: expect.stringMatching(/deleted|HTTP 503/) });
    expect(receiver.at(reg.url).length).toBeLessThanOrEqual(count + 1);
  });

  it('disables the registration when the receiver answers 410 Gone', async () => {
    const reg = await register({ answers: [410] });
    await ws.publish(reg.org, WITHDRAWAL, withdrawalPayload());
    await waitFor(async () => (await api(ws.gateway, reg.token, 'GET', `${reg.path}/${reg.id}`)).status === 404);
    const orgWide = await reg.family.events().page();
    expect(orgWide.data[0]).toMatchObject({ status: 'failed', attemptCount: 1, lastError: 'HTTP 410' });
  });
});

describe('feed actions', () => {
  it('re-delivers one event on request with the same Service-Event-Id', async () => {
    const reg = await register();
    await ws.publish(reg.org, WITHDRAWAL, withdrawalPayload());
    const [item] = await settled(reg, 1);
    const retried = await reg.family.retry(reg.id, String(item?.id));
    expect(retried).toMatchObject({ id: item?.id, status: 'pending' });
    await waitFor(async () => (await feed(reg))[0]?.attemptCount === 2 && (await feed(reg))[0]?.status === 'completed');
    const requests = receiver.at(reg.url);
    expect(requests.map((request) => request.headers['service-event-id'])).toEqual([item?.id, item?.id]);
    const unknown = await rejection(reg.family.retry(reg.id, '8c1b6f4e-2f55-4d9e-9a51-0f6d2c0b7a11'));
    expect(unknown).toEqual({ status: 404, body: { error: 'Webhook event not found.', code: 'webhook_not_found' } });
  });

  it('sends a signed test delivery', async () => {
    const reg = await register();
    const sent = await reg.family.test(reg.id);
    expect(sent).toMatchObject({ eventType: 'webhook.test', status: 'pending', payload: { event: 'webhook.test', webhookId: reg.id } });
    const [request] = await waitFor(() => (receiver.at(reg.url).length === 1 ? receiver.at(reg.url) : undefined));
    expect(request?.headers['service-event-type']).toBe('webhook.test');
    const headers = request?.headers as Record<string, string>;
    expect(new Webhook(`whsec_${Buffer.from(reg.secret).toString('base64')}`).verify(request?.body ?? '', headers)).toMatchObject({
      webhookId: reg.id,
    });
    expect(verifyWebhook({ payload: request?.body ?? '', headers, secret: reg.secret })).toEqual({
      event: 'webhook.test',
      observedAt: expect.any(String),
      webhookId: reg.id,
    });
  });

  it('pages the feed newest first', async () => {
    const reg = await register();
    for (let index = 0; index < 5; index += 1) await ws.publish(reg.org, WITHDRAWAL, withdrawalPayload(`s${index}`));
    const all = await settled(reg, 5);
    const seen: string[] = [];
    const sizes: number[] = [];
    for await (const page of reg.family.events(reg.id, { limit: 2 }).pages()) {
      seen.push(...page.data.map((item) => item.id));
      sizes.push(page.data.length);
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(all.map((item) => item.id));
    const createdAt = all.map((item) => item.createdAt);
    expect([...createdAt].sort().reverse()).toEqual(createdAt);
  });
});

describe('backlog', () => {
  it('delivers a backlog to several receivers, each event once per recorded attempt, never more than the per-endpoint cap at a time', async () => {
    const PER_ENDPOINT = 32; // WEBHOOK_CONCURRENCY_PER_ENDPOINT's default
    const EVENTS = 150;
    const regs = [
      await register({ answers: [{ status: 200, afterMs: 20 }] }),
      await register({ answers: [{ status: 200, afterMs: 20 }] }),
      await register(),
    ];
    const published = await Promise.all(
      regs.map(async (reg) => {
        const ids: string[] = [];
        for (let sent = 0; sent < EVENTS; sent += 50) {
          const events = await Promise.all(Array.from({ length: 50 }, () => ws.publish(reg.org, WITHDRAWAL, withdrawalPayload())));
          ids.push(...events.map((event) => event.id));
        }
        return ids;
      }),
    );
    expect(published.flat()).toHaveLength(EVENTS * regs.length);
    const history = async (reg: Registered) => {
      const items: WebhookDeliveryEventDto[] = [];
      for await (const item of reg.family.events(reg.id, { limit: 100 })) items.push(item as WebhookDeliveryEventDto);
      return items;
    };
    for (const reg of regs) {
      // Until every delivery is recorded completed: the receiver saw each attempt before answering it.
      const items = await waitFor(async () => {
        const found = await history(reg);
        return found.length === EVENTS && found.every((item) => item.status === 'completed') && found;
      }, 20_000);
      const eventIds = receiver.at(reg.url).map((request) => request.headers['service-event-id']);
      expect(new Set(eventIds).size).toBe(EVENTS);
      expect(items).toHaveLength(EVENTS);
      expect(items.every((item) => item.status === 'completed')).toBe(true);
      // One request per recorded attempt: every attempt is 1 on a quiet machine, but under heavy
      // load a receiver can miss the test timeout (TEST_TIMEOUT_MS) and the cut attempt is retried.
      expect(eventIds).toHaveLength(items.reduce((sum, item) => sum + item.attemptCount, 0));
    }
    for (const slow of regs.slice(0, 2)) {
      const most = receiver.mostOpen.get(new URL(slow.url).pathname) ?? 0;
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(PER_ENDPOINT);
    }
  }, 40_000);
});

describe('crash', () => {
  it('loses nothing when the service is killed mid-attempt: every delivery completes after a restart', async () => {
    const reg = await register({ answers: ['hang', 'hang', 'hang', 200] });
    for (let index = 0; index < 10; index += 1) await ws.publish(reg.org, WITHDRAWAL, withdrawalPayload());
    await waitFor(() => receiver.at(reg.url).length >= 3);
    ws.service.child.kill('SIGKILL');
    await new Promise((resolve) => ws.service.child.once('exit', resolve));
    for (let index = 0; index < 10; index += 1) await ws.publish(reg.org, WITHDRAWAL, withdrawalPayload());
    await ws.restart();

    const items = await waitFor(async () => {
      const current = await feed(reg);
      return current.length === 20 && current.every((item) => item.status === 'completed') ? current : undefined;
    }, 15_000);
    const answered = new Set(receiver.at(reg.url).map((request) => request.headers['service-event-id']));
    expect(answered).toEqual(new Set(items.map((item) => item.id)));
    // The three attempts cut by the kill were made again; an attempt answered but not yet recorded
    // may be repeated too (at least once, same Service-Event-Id), nothing more.
    const hung = receiver
      .at(reg.url)
      .slice(0, 3)
      .map((request) => request.headers['service-event-id']);
    for (const item of items) {
      expect(item.attemptCount).toBe(hung.includes(item.id) ? 2 : item.attemptCount);
      expect(item.attemptCount).toBeLessThanOrEqual(2);
    }
  }, 40_000);
});
