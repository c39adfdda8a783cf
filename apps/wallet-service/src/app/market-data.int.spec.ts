import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  ALL_ORGANIZATIONS,
  type DomainEventOf,
  type EventPayloadOf,
  eventSubject,
  type RequestContext,
  type WalletYieldSourceDto,
} from '@service/contracts';
import { SubjectClient } from '@service/nats';
import { type InProcessService, startServiceInProcess } from '@service/service-testing';
import { eventually } from '@service/testing';
import { walletConfigSpec } from '../config.js';
import { AppModule } from './app.module.js';
import { Catalogue } from './domain/catalogue/catalogue.js';
import { WalletSql } from './repositories/wallet-sql.js';
import { MARKET_DATA_DURABLE } from './workflows/market-data-consumer.js';
import { RISK_DURABLE } from './workflows/risk-consumer.js';

/**
 * The catalogue's live figures in process: `risk.metrics.observed` events published onto the
 * run's stream as risk-service's relay publishes them (`<prefix>.risk.risk.metrics.observed`),
 * consumed by the `wallet-market-data` durable, then `wallet.yield-sources.list` asked the way
 * the gateway asks it.
 */
let service: InProcessService;
let client: SubjectClient;
let nats: NatsConnection;
let catalogue: Catalogue;

beforeAll(async () => {
  service = await startServiceInProcess({ name: 'wallet', module: AppModule.forRoot, spec: walletConfigSpec });
  client = new SubjectClient(service.requester);
  catalogue = service.running.app.get(Catalogue);
  nats = await connect({ servers: service.env['NATS_URL'] });
});

afterAll(async () => {
  await nats?.close();
  await service?.stop();
});

let orgs = 0;
const freshOrg = () => `org_${randomUUID().slice(0, 8)}_${(orgs += 1)}`;
const ctxOf = (orgId: string): RequestContext => ({ orgId, role: 'member', principalId: `user_${orgId}`, requestId: randomUUID() });
const MARKET = 'service-justlend-usdt-tron-market';
const USTB = 'service-ustb-vault';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ago = (ms: number) => new Date(Date.now() - ms);

type Observation = EventPayloadOf<'risk.metrics.observed'>;

/** An observation as risk-service's relay publishes it; `orgId` null: a provider's reading. */
async function observe(
  yieldSourceId: string,
  figures: { apy_bps?: number | null; tvl_usd?: number | null },
  options: { orgId?: string | null; recordedAt?: Date; expiresAt?: Date | null } = {},
): Promise<DomainEventOf<'risk.metrics.observed'>> {
  const orgId = options.orgId ?? null;
  const payload: Observation = {
    observationId: randomUUID(),
    yieldSourceId,
    orgId,
    metrics: { apy_bps: null, tvl_usd: null, available_withdrawal_liquidity_usd: null, ...figures },
    recordedAt: (options.recordedAt ?? new Date()).toISOString(),
    expiresAt:
      options.expiresAt === undefined
        ? orgId === null
          ? null
          : new Date(Date.now() + 10 * MINUTE).toISOString()
        : (options.expiresAt?.toISOString() ?? null),
  };
  return publish(payload);
}

async function publish(payload: Observation, id = randomUUID()): Promise<DomainEventOf<'risk.metrics.observed'>> {
  const type = 'risk.metrics.observed';
  const event = {
    id,
    type,
    orgId: payload.orgId ?? ALL_ORGANIZATIONS,
    source: 'risk',
    occurredAt: new Date().toISOString(),
    payload,
  } as const;
  await jetstream(nats).publish(eventSubject(service.env['EVENTS_SUBJECT_PREFIX']!, 'risk', type), JSON.stringify(event), { msgID: id });
  return event;
}

/** The catalogue an organization reads, by source id. */
async function catalogueOf(orgId: string): Promise<Record<string, WalletYieldSourceDto>> {
  const { data } = await client.request('wallet.yield-sources.list', { ctx: ctxOf(orgId), limit: 100 });
  return Object.fromEntries(data.map((source) => [source.id, source]));
}

/** Waits until the organization's catalogue shows `tvlUsd` for the source: the events before it were consumed too. */
const showing = (orgId: string, yieldSourceId: string, tvlUsd: number) =>
  eventually(
    () => catalogueOf(orgId),
    (sources) => sources[yieldSourceId]?.tvlUsd === tvlUsd,
  );

const ownTvl = (id: string) => catalogue.get(id).profile.tvlUsd;

describe("the catalogue's live figures", () => {
  it("show the catalogue's own TVL and no currentApy before any observation", async () => {
    const sources = await catalogueOf(freshOrg());
    expect(sources[MARKET]).not.toHaveProperty('currentApy');
    expect(sources[MARKET]!.tvlUsd).toBe(ownTvl(MARKET));
    expect(sources[USTB]!.tvlUsd).toBe(ownTvl(USTB));
  });

  it('follow the latest provider reading, omit a rate older than two hours, and never go back to an older one', async () => {
    const org = freshOrg();
    await observe(MARKET, { apy_bps: 290, tvl_usd: 41_000_000 }, { recordedAt: ago(3 * HOUR) });
    const stale = (await showing(org, MARKET, 41_000_000))[MARKET]!;
    expect(stale).not.toHaveProperty('currentApy');

    const fresh = await observe(MARKET, { apy_bps: 305.4, tvl_usd: 42_000_000.5 }, { recordedAt: ago(MINUTE) });
    const shown = (await showing(org, MARKET, 42_000_000.5))[MARKET]!;
    const asOf = new Date(fresh.payload.recordedAt);
    expect(shown.currentApy).toEqual({
      apyBps: 305,
      asOf: asOf.toISOString(),
      validUntil: new Date(asOf.getTime() + 2 * HOUR).toISOString(),
    });

    // An older reading arriving late, and the same event again, change nothing; the USTB reading after them shows they were consumed.
    await observe(MARKET, { apy_bps: 100, tvl_usd: 1 }, { recordedAt: ago(30 * MINUTE) });
    await publish(fresh.payload);
    await observe(USTB, { apy_bps: 400, tvl_usd: 777 });
    const after = await showing(org, USTB, 777);
    expect(after[MARKET]).toMatchObject({ currentApy: shown.currentApy, tvlUsd: 42_000_000.5 });
    // currentApy is a lending market's preview only; every source's TVL is observed.
    expect(after[USTB]).not.toHaveProperty('currentApy');
    // Every organization sees the providers' readings.
    expect((await catalogueOf(freshOrg()))[MARKET]).toEqual(after[MARKET]);
  });

  it("show an organization's injection to it alone while it holds, then the provider's reading again", async () => {
    const [injecting, other, expired] = [freshOrg(), freshOrg(), freshOrg()];
    const provider = await observe(MARKET, { apy_bps: 310, tvl_usd: 43_000_000 });
    await showing(other, MARKET, 43_000_000);
    await observe(MARKET, { apy_bps: 12, tvl_usd: 5_000 }, { orgId: injecting });
    await observe(MARKET, { apy_bps: 13, tvl_usd: 6_000 }, { orgId: expired, recordedAt: ago(20 * MINUTE), expiresAt: ago(MINUTE) });
    const seen = (await showing(injecting, MARKET, 5_000))[MARKET]!;
    expect(seen.currentApy?.apyBps).toBe(12);
    expect((await catalogueOf(other))[MARKET]).toMatchObject({
      currentApy: { apyBps: 310, asOf: provider.payload.recordedAt },
      tvlUsd: 43_000_000,
    });
    expect((await catalogueOf(expired))[MARKET]).toMatchObject({ currentApy: { apyBps: 310 }, tvlUsd: 43_000_000 });
  });

  it('keep one row per source and scope, without processed_events, on a durable of their own', async () => {
    const sql = service.running.app.get(WalletSql);
    const rows = await sql.$queryRawUnsafe<{ org_id: string; count: number }[]>(
      `SELECT org_id, count(*)::int AS count FROM market_figures WHERE yield_source_id = $1 AND org_id = $2 GROUP BY org_id`,
      MARKET,
      ALL_ORGANIZATIONS,
    );
    expect(rows).toEqual([{ org_id: ALL_ORGANIZATIONS, count: 1 }]);
    const processed = await sql.$queryRawUnsafe<unknown[]>('SELECT 1 FROM processed_events WHERE consumer = $1', MARKET_DATA_DURABLE);
    expect(processed).toEqual([]);
    const jsm = await jetstreamManager(nats);
    const stream = service.env['EVENTS_STREAM']!;
    const market = await eventually(
      () => jsm.consumers.info(stream, MARKET_DATA_DURABLE),
      (info) => info.num_pending === 0 && info.num_ack_pending === 0,
    );
    expect(market.delivered.consumer_seq).toBeGreaterThan(0);
    // The risk projection's durable does not receive the observations.
    expect((await jsm.consumers.info(stream, RISK_DURABLE)).delivered.consumer_seq).toBe(0);
  });
});
