import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { type NatsConnection, PermissionViolationError } from '@nats-io/transport-node';
import {
  ALL_ORGANIZATIONS,
  API_KEY_HASH_FORMAT,
  BROADCASTS,
  type DomainEvent,
  eventSubject,
  type RequestContext,
  SUBJECTS,
  type WireRequestOf,
} from '@service/contracts';
import { NatsRequester, SubjectClient } from '@service/nats';
import { callGateway, eventually, type NatsUser, startTestSystem, type TestSystem } from '@service/testing';

/**
 * The attacks the shipped NATS configuration (k8s/base/nats/nats-server.conf) stops, each made
 * through the real gateway and services on a nats-server running that configuration, as every e2e
 * suite does. Each test makes the attack as a user the server refuses, then (the control) the same
 * action as the one user allowed to, which takes effect: on a server without permissions the attack
 * would have too.
 */

let system: TestSystem;
let receiver: { server: Server; url: string; requests: { path: string; body: string }[] };
const connections: NatsConnection[] = [];
/** Each test connection's permission violations, as the server reported them. */
const violations = new Map<NatsConnection, PermissionViolationError[]>();

const DEPOSIT = 'portfolio_wallet.deposit.status_changed';
const depositIdOf = (event: DomainEvent) => (event.payload as { deposit: { id: string } }).deposit.id;

beforeAll(async () => {
  receiver = await startReceiver();
  system = await startTestSystem({
    services: ['wallet', 'webhook', 'identity'],
    gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '100000', RATE_LIMIT_WRITE_PER_MINUTE: '100000' },
    serviceEnv: { webhook: { WEBHOOK_PRIVATE_HOST_ALLOWLIST: '127.0.0.1', WEBHOOK_POLL_INTERVAL_MS: '50' } },
  });
}, 90_000);

afterAll(async () => {
  await Promise.all(connections.map((connection) => connection.close()));
  await system?.stop();
  await new Promise((resolve) => receiver?.server.close(resolve));
}, 30_000);

/** A connection as `user`, its permission violations recorded. */
async function as(user: NatsUser): Promise<NatsConnection> {
  const connection = await system.nats.connect(user);
  connections.push(connection);
  const seen: PermissionViolationError[] = [];
  violations.set(connection, seen);
  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === 'error' && status.error instanceof PermissionViolationError) seen.push(status.error);
    }
  })();
  return connection;
}

/** Resolves once the server has refused `connection` the operation on `subject`. */
function refused(connection: NatsConnection, operation: 'publish' | 'subscription', subject: string): Promise<PermissionViolationError[]> {
  return eventually(
    () => violations.get(connection) ?? [],
    (seen) => seen.some((violation) => violation.operation === operation && violation.subject === subject),
  );
}

/** Nest-format request/reply as the gateway and the operator CLI send it: a refused one fails after `timeoutMs`. */
const requester = (connection: NatsConnection, timeoutMs = 1_500) => new SubjectClient(new NatsRequester(connection, timeoutMs));

const ownerOf = (orgId: string): RequestContext => ({ orgId, principalId: 'attacker', role: 'owner', requestId: randomUUID() });

const token = (org: string, role = 'owner') => system.auth.token({ org, role, sub: `user_${org}` });
const gateway = (bearer: string | null, method: string, path: string, body?: unknown) =>
  callGateway(system.gatewayUrl, bearer, method, path, body);

/** A webhook receiver on loopback that records every request and answers 200. */
async function startReceiver(): Promise<{ server: Server; url: string; requests: { path: string; body: string }[] }> {
  const requests: { path: string; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ path: request.url ?? '/', body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, requests };
}

describe('the server runs the shipped configuration', () => {
  it("refuses a client without credentials, or with another user's password", async () => {
    expect(system.nats.passwords).toBeDefined();
    const { connect } = await import('@nats-io/transport-node');
    await expect(connect({ servers: system.natsUrl, reconnect: false })).rejects.toThrow(/authorization/i);
    await expect(
      connect({ servers: system.natsUrl, reconnect: false, user: 'identity', pass: system.nats.passwords!.gateway }),
    ).rejects.toThrow(/authorization/i);
  });
});

describe("a service asking another service's subject", () => {
  it('cannot get an owner key of any organization from identity-service; the operator CLI can', async () => {
    const org = `org_victim_${randomUUID().slice(0, 8)}`;
    const request: WireRequestOf<typeof SUBJECTS.identity.apiKeysCreate> = { ctx: ownerOf(org), name: 'stolen', role: 'owner' };

    const wallet = await as('wallet');
    await expect(requester(wallet).request(SUBJECTS.identity.apiKeysCreate, request)).rejects.toMatchObject({
      code: 'service_temporarily_unavailable',
    });
    await refused(wallet, 'publish', SUBJECTS.identity.apiKeysCreate);
    const keys = await gateway(await token(org), 'GET', '/v2/api-keys');
    expect(keys).toMatchObject({ status: 200, body: { data: [] } });

    // The control: the one user allowed to send it gets a key that opens the organization.
    const admin = await as('admin');
    const created = await requester(admin, 10_000).request(SUBJECTS.identity.apiKeysCreate, {
      ...request,
      ctx: ownerOf(org),
      name: 'operator',
    });
    expect((await gateway(created.key, 'GET', '/v2/api-keys')).status).toBe(200);
  });

  it("cannot ask another service's public subject either", async () => {
    const webhook = await as('webhook');
    await expect(
      requester(webhook).request(SUBJECTS.wallet.walletsList, { ctx: ownerOf('org_other'), limit: 10 } as never),
    ).rejects.toMatchObject({
      code: 'service_temporarily_unavailable',
    });
    await refused(webhook, 'publish', SUBJECTS.wallet.walletsList);
  });
});

describe('identity.api-keys.authenticate', () => {
  it("is read and answered by identity-service alone, and carries the key's hash, never the key", async () => {
    const org = `org_keys_${randomUUID().slice(0, 8)}`;
    const made = await gateway(await token(org), 'POST', '/v2/api-keys', { name: 'ci', role: 'member' });
    expect(made.status).toBe(201);
    const key = (made.body as { key: string }).key;

    // Anyone else subscribing (to read the keys, or to answer in identity-service's queue group) is refused.
    const gatewayUser = await as('gateway');
    gatewayUser.subscribe(SUBJECTS.identity.apiKeysAuthenticate);
    const wallet = await as('wallet');
    wallet.subscribe(SUBJECTS.identity.apiKeysAuthenticate, { queue: 'identity-service' });
    await refused(gatewayUser, 'subscription', SUBJECTS.identity.apiKeysAuthenticate);
    await refused(wallet, 'subscription', SUBJECTS.identity.apiKeysAuthenticate);

    // What identity-service receives when the key is first presented: its hash, not the key.
    const identity = await as('identity');
    const seen: string[] = [];
    identity.subscribe(SUBJECTS.identity.apiKeysAuthenticate, { callback: (_error, message) => void seen.push(message.string()) });
    await identity.flush();
    expect((await gateway(key, 'GET', '/v2/api-keys/' + (made.body as { id: string }).id)).status).not.toBe(401);
    const [lookup] = await eventually(
      () => seen,
      (all) => all.length > 0,
    );
    expect(lookup).not.toContain(key);
    expect(lookup).not.toContain(key.slice(-20));
    const data = (JSON.parse(lookup!) as { data: { keyHash: string; key?: string } }).data;
    expect(data.key).toBeUndefined();
    expect(data.keyHash).toMatch(API_KEY_HASH_FORMAT);
  });
});

describe('revocations', () => {
  it('are published by identity-service alone: a forged one evicts no key', async () => {
    const org = `org_revoke_${randomUUID().slice(0, 8)}`;
    const made = await gateway(await token(org), 'POST', '/v2/api-keys', { name: 'ci', role: 'admin' });
    const { key, id } = made.body as { key: string; id: string };
    expect((await gateway(key, 'GET', '/v2/api-keys')).status).toBe(200);

    const payload = JSON.stringify({ keyId: id });
    const wallet = await as('wallet');
    const gatewayUser = await as('gateway');
    wallet.publish(BROADCASTS.apiKeyRevoked, payload);
    gatewayUser.publish(BROADCASTS.apiKeyRevoked, payload);
    await refused(wallet, 'publish', BROADCASTS.apiKeyRevoked);
    await refused(gatewayUser, 'publish', BROADCASTS.apiKeyRevoked);
    expect((await gateway(key, 'GET', '/v2/api-keys')).status).toBe(200);

    // The control: the same broadcast from identity-service's user shuts the key out at once.
    const identity = await as('identity');
    identity.publish(BROADCASTS.apiKeyRevoked, payload);
    await eventually(
      () => gateway(key, 'GET', '/v2/api-keys').then((reply) => reply.status),
      (status) => status === 401,
    );
  });
});

describe('the event stream', () => {
  it("takes wallet events from the wallet relay's user alone: webhook-service signs and delivers no forged one", async () => {
    const org = `org_events_${randomUUID().slice(0, 8)}`;
    const url = `${receiver.url}/${org}`;
    const registered = await gateway(await token(org, 'admin'), 'POST', '/v2/webhooks', { url, events: [DEPOSIT] });
    expect(registered.status).toBe(200);
    const subject = eventSubject(system.stream.EVENTS_SUBJECT_PREFIX, 'wallet', DEPOSIT);
    const eventOf = (status: string): DomainEvent => ({
      id: randomUUID(),
      type: DEPOSIT,
      orgId: org,
      source: 'wallet',
      occurredAt: new Date().toISOString(),
      payload: {
        event: DEPOSIT,
        observedAt: new Date().toISOString(),
        walletId: randomUUID(),
        deposit: { id: randomUUID(), status, amountUsd: '1000000.000000' },
      },
    });

    const forged = eventOf('completed');
    for (const user of ['gateway', 'webhook', 'identity'] as const) {
      const connection = await as(user);
      await expect(jetstream(connection).publish(subject, JSON.stringify(forged), { msgID: forged.id, timeout: 1_000 })).rejects.toThrow();
      await refused(connection, 'publish', subject);
    }

    // The control: the wallet relay's user publishes the same kind of event, which is delivered.
    const genuine = eventOf('processing');
    await jetstream(await as('wallet')).publish(subject, JSON.stringify(genuine), { msgID: genuine.id });
    const deliveredTo = () => receiver.requests.filter((request) => request.path === `/hook/${org}`).map((request) => request.body);
    await eventually(deliveredTo, (bodies) => bodies.length > 0, 10_000);
    const delivered = deliveredTo();
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toContain(depositIdOf(genuine));
    expect(delivered.join()).not.toContain(depositIdOf(forged));
  });

  it("counts an event only on its publisher's subject: a wallet event for every organization from another service's user is refused", async () => {
    const org = `org_sources_${randomUUID().slice(0, 8)}`;
    const url = `${receiver.url}/${org}`;
    const registered = await gateway(await token(org, 'admin'), 'POST', '/v2/webhooks', { url, events: [DEPOSIT] });
    expect(registered.status).toBe(200);
    const eventOf = (orgId: string, source: string, status: string): DomainEvent => ({
      id: randomUUID(),
      type: DEPOSIT,
      orgId,
      source,
      occurredAt: new Date().toISOString(),
      payload: {
        event: DEPOSIT,
        observedAt: new Date().toISOString(),
        walletId: randomUUID(),
        deposit: { id: randomUUID(), status, amountUsd: '1000000.000000' },
      },
    });

    // identity-service's user may publish under its own prefix, and the server stores the event;
    // before events were bound to their publisher, webhook-service signed it for every organization.
    const forged = eventOf(ALL_ORGANIZATIONS, 'wallet', 'completed');
    const stored = await jetstream(await as('identity')).publish(
      eventSubject(system.stream.EVENTS_SUBJECT_PREFIX, 'identity', DEPOSIT),
      JSON.stringify(forged),
      { msgID: forged.id },
    );

    // The control, published after it: the wallet relay's user, on the wallet subject, for the organization.
    const genuine = eventOf(org, 'wallet', 'processing');
    const walletSubject = eventSubject(system.stream.EVENTS_SUBJECT_PREFIX, 'wallet', DEPOSIT);
    await jetstream(await as('wallet')).publish(walletSubject, JSON.stringify(genuine), { msgID: genuine.id });
    const deliveredTo = () => receiver.requests.filter((request) => request.path === `/hook/${org}`).map((request) => request.body);
    await eventually(deliveredTo, (bodies) => bodies.length > 0, 10_000);
    // webhook-service has taken the forged event off the stream (terminated: below the ack floor) without delivering it.
    const ops = await jetstreamManager(await as('ops'));
    await eventually(
      () => ops.consumers.info(system.stream.EVENTS_STREAM, 'webhook-deliveries'),
      (info) => info.ack_floor.stream_seq >= stored.seq,
    );
    const delivered = deliveredTo();
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toContain(depositIdOf(genuine));
    expect(receiver.requests.map((request) => request.body).join()).not.toContain(depositIdOf(forged));
    // Nor recorded: the organization's delivery events hold the genuine one alone.
    const recorded = await gateway(await token(org, 'admin'), 'GET', '/v2/webhooks/events');
    expect(recorded).toMatchObject({ status: 200, body: { data: [{ eventType: DEPOSIT }] } });
    expect(JSON.stringify(recorded.body)).toContain(depositIdOf(genuine));
    expect(JSON.stringify(recorded.body)).not.toContain(depositIdOf(forged));
  });

  it('is managed through the JetStream API only by the users that need it, each for its own stream and consumer', async () => {
    const gatewayUser = await as('gateway');
    await expect(jetstreamManager(gatewayUser, { timeout: 1_000 })).rejects.toThrow();
    await refused(gatewayUser, 'publish', '$JS.API.INFO');

    // A relay may look at its stream, not delete it or read it through a consumer of its own.
    const wallet = await as('wallet');
    const jsm = await jetstreamManager(wallet, { timeout: 1_000 });
    await expect(jsm.streams.info(system.stream.EVENTS_STREAM)).resolves.toBeDefined();
    await expect(jsm.streams.delete(system.stream.EVENTS_STREAM)).rejects.toThrow();
    await refused(wallet, 'publish', `$JS.API.STREAM.DELETE.${system.stream.EVENTS_STREAM}`);
    await expect(jsm.consumers.add(system.stream.EVENTS_STREAM, { durable_name: 'snoop' })).rejects.toThrow();
  });

  it("keeps its configuration from every service's user: a 1 s max_age (every unconsumed event dropped) is refused", async () => {
    const stream = system.stream.EVENTS_STREAM;
    for (const user of ['wallet', 'webhook', 'activity'] as const) {
      const connection = await as(user);
      const jsm = await jetstreamManager(connection, { timeout: 1_000 });
      await expect(jsm.streams.update(stream, { max_age: 1_000_000_000 })).rejects.toThrow();
      await refused(connection, 'publish', `$JS.API.STREAM.UPDATE.${stream}`);
    }
    // Only the operator's user (`npm run -s admin -- streams ensure`) may change it.
    const ops = await jetstreamManager(await as('ops'));
    expect((await ops.streams.info(stream)).config.max_age).toBe(0);
  });
});

describe('operator subjects', () => {
  it("are refused to the gateway's user and answered for the operator CLI's", async () => {
    const org = `org_operator_${randomUUID().slice(0, 8)}`;
    const gatewayUser = await as('gateway');
    await expect(requester(gatewayUser).request(SUBJECTS.wallet.sandboxFailNextPayout, { ctx: ownerOf(org) })).rejects.toMatchObject({
      code: 'service_temporarily_unavailable',
    });
    await refused(gatewayUser, 'publish', SUBJECTS.wallet.sandboxFailNextPayout);

    const admin = await as('admin');
    await expect(requester(admin, 10_000).request(SUBJECTS.wallet.sandboxFailNextPayout, { ctx: ownerOf(org) })).resolves.toEqual({
      orgId: org,
      armedAt: expect.any(String),
    });
  });
});

describe('inboxes', () => {
  it('are read by their own user alone', async () => {
    const wallet = await as('wallet');
    wallet.subscribe('_INBOX.>');
    wallet.subscribe('_INBOX_gateway.>');
    await refused(wallet, 'subscription', '_INBOX.>');
    await refused(wallet, 'subscription', '_INBOX_gateway.>');
  });
});

describe("risk-service's user", () => {
  const ACTION = 'portfolio_wallet.risk.action.status_changed';
  const actionEvent = (orgId: string): DomainEvent => ({
    id: randomUUID(),
    type: ACTION,
    orgId,
    source: 'risk',
    occurredAt: new Date().toISOString(),
    // A proposal: wallet-service acts only on an executing exit or a decided block.
    payload: {
      event: ACTION,
      observedAt: new Date().toISOString(),
      walletId: randomUUID(),
      action: { id: randomUUID(), status: 'proposed' },
    },
  });

  it('alone publishes risk actions, on which wallet-service exits positions', async () => {
    const subject = eventSubject(system.stream.EVENTS_SUBJECT_PREFIX, 'risk', ACTION);
    const forged = actionEvent(`org_risk_${randomUUID().slice(0, 8)}`);
    for (const user of ['gateway', 'webhook', 'wallet'] as const) {
      const connection = await as(user);
      await expect(jetstream(connection).publish(subject, JSON.stringify(forged), { msgID: forged.id, timeout: 1_000 })).rejects.toThrow();
      await refused(connection, 'publish', subject);
    }

    // The control: the risk user's own event is stored (a proposal, which nobody acts on).
    const genuine = actionEvent(`org_risk_${randomUUID().slice(0, 8)}`);
    await expect(jetstream(await as('risk')).publish(subject, JSON.stringify(genuine), { msgID: genuine.id })).resolves.toMatchObject({
      stream: system.stream.EVENTS_STREAM,
    });
  });

  it("publishes no wallet event, asks no wallet subject and cannot create or read wallet-service's risk consumer", async () => {
    const risk = await as('risk');
    const walletSubject = eventSubject(system.stream.EVENTS_SUBJECT_PREFIX, 'wallet', DEPOSIT);
    await expect(jetstream(risk).publish(walletSubject, '{}', { msgID: randomUUID(), timeout: 1_000 })).rejects.toThrow();
    await refused(risk, 'publish', walletSubject);

    await expect(
      requester(risk).request(SUBJECTS.wallet.walletsList, { ctx: ownerOf('org_other'), limit: 10 } as never),
    ).rejects.toMatchObject({
      code: 'service_temporarily_unavailable',
    });
    await refused(risk, 'publish', SUBJECTS.wallet.walletsList);

    const stream = system.stream.EVENTS_STREAM;
    const jsm = await jetstreamManager(risk, { timeout: 1_000 });
    await expect(jsm.consumers.info(stream, 'wallet-risk')).rejects.toThrow();
    await refused(risk, 'publish', `$JS.API.CONSUMER.INFO.${stream}.wallet-risk`);
    await expect(
      jsm.consumers.add(stream, { durable_name: 'wallet-risk', filter_subject: `${system.stream.EVENTS_SUBJECT_PREFIX}.>` }),
    ).rejects.toThrow();
    const creates = /^\$JS\.API\.CONSUMER\.(DURABLE\.)?CREATE\..*wallet-risk/;
    await eventually(
      () => violations.get(risk) ?? [],
      (seen) => seen.some((violation) => violation.operation === 'publish' && creates.test(violation.subject)),
    );
  });
});
