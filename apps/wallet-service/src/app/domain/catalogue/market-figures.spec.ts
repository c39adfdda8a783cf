import { describe, expect, it } from '@jest/globals';
import { ALL_ORGANIZATIONS, type AnyDomainEvent } from '@service/contracts';
import { Catalogue } from './catalogue.js';
import { liveFiguresOf, type MarketFigures, marketFiguresOfEvent, newestPerScope } from './market-figures.js';

const MARKET = 'service-justlend-usdt-tron-market';
const VAULT = 'service-ustb-vault';
const ORG = 'org_a';
const now = new Date('2026-11-28T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const HOUR = 3_600_000;
const catalogue = new Catalogue('sandbox');

let ids = 0;
function row(figures: Partial<MarketFigures> & Pick<MarketFigures, 'recordedAt'>): MarketFigures {
  ids += 1;
  return {
    yieldSourceId: MARKET,
    orgId: ALL_ORGANIZATIONS,
    observationId: `00000000-0000-4000-8000-${String(ids).padStart(12, '0')}`,
    apyBps: 305,
    tvlUsd: 40_000_000,
    availableWithdrawalLiquidityUsd: 1_000_000,
    expiresAt: null,
    ...figures,
  };
}

/** The catalogue's view of a source for ORG, from these rows. */
const viewOf = (rows: MarketFigures[], id = MARKET, orgId = ORG) =>
  catalogue.view(catalogue.get(id), now, liveFiguresOf(rows, orgId, now).get(id));

describe("the catalogue's live figures", () => {
  it('show a fresh provider reading: currentApy valid two hours from its observation, and its TVL', () => {
    const asOf = ago(10 * 60_000);
    expect(viewOf([row({ recordedAt: asOf, apyBps: 298.6, tvlUsd: 41_500_000.25 })])).toMatchObject({
      currentApy: { apyBps: 299, asOf: asOf.toISOString(), validUntil: new Date(asOf.getTime() + 2 * HOUR).toISOString() },
      tvlUsd: 41_500_000.25,
    });
  });

  it('omit currentApy once the observation is two hours old, and keep its TVL', () => {
    const view = viewOf([row({ recordedAt: ago(2 * HOUR), tvlUsd: 39_000_000 })]);
    expect(view).not.toHaveProperty('currentApy');
    expect(view.tvlUsd).toBe(39_000_000);
    expect(viewOf([row({ recordedAt: ago(2 * HOUR - 1) })]).currentApy).toBeDefined();
  });

  it("fall back to the catalogue's TVL, without currentApy, only while no observation carries one", () => {
    const own = catalogue.view(catalogue.get(MARKET), now);
    expect(viewOf([])).toEqual(own);
    expect(viewOf([row({ recordedAt: ago(60_000), yieldSourceId: VAULT })])).toEqual(own);
    expect(viewOf([row({ recordedAt: ago(60_000), tvlUsd: null, apyBps: null })])).toEqual(own);
  });

  it("show the organization's injection while it holds, and the provider's reading to every other organization", () => {
    const provider = row({ recordedAt: ago(30_000), apyBps: 310, tvlUsd: 40_000_000 });
    const injected = row({ orgId: ORG, recordedAt: ago(60_000), expiresAt: new Date(now.getTime() + 60_000), apyBps: 12, tvlUsd: 1_000 });
    expect(viewOf([provider, injected])).toMatchObject({
      currentApy: { apyBps: 12, asOf: injected.recordedAt.toISOString() },
      tvlUsd: 1_000,
    });
    expect(viewOf([provider, injected], MARKET, 'org_b')).toMatchObject({ currentApy: { apyBps: 310 }, tvlUsd: 40_000_000 });
    // An injection that names no TVL shows the provider's.
    expect(viewOf([provider, { ...injected, tvlUsd: null }]).tvlUsd).toBe(40_000_000);
  });

  it("show the provider's reading again once the injection has expired", () => {
    const provider = row({ recordedAt: ago(5 * 60_000), apyBps: 310, tvlUsd: 40_000_000 });
    const expired = row({ orgId: ORG, recordedAt: ago(20 * 60_000), expiresAt: now, apyBps: 12, tvlUsd: 1_000 });
    expect(viewOf([provider, expired])).toMatchObject({
      currentApy: { apyBps: 310, asOf: provider.recordedAt.toISOString() },
      tvlUsd: 40_000_000,
    });
    // Without a provider reading, an expired injection shows nothing.
    expect(viewOf([expired])).toEqual(catalogue.view(catalogue.get(MARKET), now));
  });

  it('give currentApy to lending markets only, and the observed TVL to every source', () => {
    const view = viewOf([row({ yieldSourceId: VAULT, recordedAt: ago(60_000), apyBps: 430, tvlUsd: 123 })], VAULT);
    expect(view).not.toHaveProperty('currentApy');
    expect(view.tvlUsd).toBe(123);
  });
});

describe('risk.metrics.observed events', () => {
  const event = (payload: object, type = 'risk.metrics.observed') =>
    ({ id: 'e', type, orgId: ALL_ORGANIZATIONS, source: 'risk', occurredAt: now.toISOString(), payload }) as unknown as AnyDomainEvent;
  const payload = {
    observationId: '00000000-0000-4000-8000-0000000000aa',
    yieldSourceId: MARKET,
    orgId: null,
    metrics: { apy_bps: 300, tvl_usd: 1.5, available_withdrawal_liquidity_usd: null },
    recordedAt: now.toISOString(),
    expiresAt: null,
  };

  it('become the row of their source and scope; other events and malformed ones none', () => {
    expect(marketFiguresOfEvent(event(payload))).toEqual({
      yieldSourceId: MARKET,
      orgId: ALL_ORGANIZATIONS,
      observationId: payload.observationId,
      apyBps: 300,
      tvlUsd: 1.5,
      availableWithdrawalLiquidityUsd: null,
      recordedAt: now,
      expiresAt: null,
    });
    expect(marketFiguresOfEvent(event({ ...payload, orgId: ORG, expiresAt: now.toISOString() }))).toMatchObject({
      orgId: ORG,
      expiresAt: now,
    });
    expect(marketFiguresOfEvent(event(payload, 'portfolio_wallet.risk.alert.triggered'))).toBeUndefined();
    expect(marketFiguresOfEvent(event({ ...payload, recordedAt: 'soon' }))).toBeUndefined();
  });

  it('of one batch keep the newest per source and scope', () => {
    const old = row({ recordedAt: ago(HOUR) });
    const newer = row({ recordedAt: ago(60_000) });
    const tie = { ...newer, observationId: '00000000-0000-4000-8000-ffffffffffff' };
    const other = row({ orgId: ORG, recordedAt: ago(2 * HOUR) });
    expect(newestPerScope([newer, old, other])).toEqual([newer, other]);
    expect(newestPerScope([tie, newer, old])).toEqual([tie]);
  });
});
