import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type InProcessService, startServiceInProcess } from '@service/service-testing';
import { riskConfigSpec } from '../config.js';
import { AppModule } from './app.module.js';
import type { RiskSource } from './domain/catalogue.js';
import { MarketDataService } from './market-data/market-data.service.js';
import { PrismaService } from './prisma.service.js';

/**
 * Evaluation cost grows with the rules on the observed source, not with all rules: 10,000 rules
 * over 50 sources (200 each), an observation of one source evaluates its 200; 10,000 more rules on
 * other sources leave the cost of that observation about where it was. Readings never breach here
 * (`tvl_usd lt 0`), so what is measured is the evaluation itself. `RISK_SCALE_REPORT=1` prints the
 * figures.
 */
let service: InProcessService;
let prisma: PrismaService;
let marketData: MarketDataService;

beforeAll(async () => {
  service = await startServiceInProcess({
    name: 'risk',
    module: AppModule.forRoot,
    spec: riskConfigSpec,
    env: { RISK_OBSERVATION_INTERVAL_MS: '0' },
  });
  prisma = service.running.app.get(PrismaService);
  marketData = service.running.app.get(MarketDataService);
});

afterAll(async () => {
  await service?.stop();
});

const sourceOf = (index: number): RiskSource => ({
  id: `scale-source-${index}`,
  label: `Scale source ${index}`,
  protocol: 'scale',
  apyBps: 500,
  tvlUsd: 1_000_000,
  liquidityPct: 10,
  environments: ['sandbox'],
});

/** `perSource` never-breaching rules on each of the sources `from` .. `to - 1`, in one statement. */
async function insertRules(from: number, to: number, perSource: number): Promise<void> {
  await prisma.$executeRawUnsafe(
    `INSERT INTO risk_rules (id, org_id, wallet_id, yield_source_id, metric, rule_kind, comparator, threshold_value, severity, action, status, created_at, updated_at)
     SELECT gen_random_uuid(), 'org_scale_' || (n % 97), gen_random_uuid(), 'scale-source-' || s, 'tvl_usd', 'absolute', 'lt', 0, 'warning', 'alert_only', 'active', now(), now()
       FROM generate_series($1::int, $2::int - 1) s, generate_series(1, $3::int) n`,
    from,
    to,
    perSource,
  );
  await prisma.$executeRawUnsafe('ANALYZE risk_rules');
}

/** Milliseconds per observation of source 7, over `count` observations. */
async function timeObservations(count: number): Promise<number> {
  const source = sourceOf(7);
  const started = performance.now();
  for (let index = 0; index < count; index += 1) {
    await marketData.record(
      source,
      'simulated',
      { apy_bps: 500, tvl_usd: 1_000_000 + index, available_withdrawal_liquidity_usd: 1 },
      new Date(),
    );
  }
  return (performance.now() - started) / count;
}

describe('evaluation at scale', () => {
  it('reads the rules of the observed source only, at a cost that does not grow with the other sources', async () => {
    await insertRules(0, 50, 200);
    await timeObservations(5);
    const before = await timeObservations(30);
    await insertRules(50, 100, 200);
    await timeObservations(5);
    const after = await timeObservations(30);
    const rulesOfSource = await prisma.riskRule.count({ where: { yieldSourceId: 'scale-source-7' } });
    expect(rulesOfSource).toBe(200);
    expect(await prisma.riskRule.count()).toBe(20_000);
    if (process.env['RISK_SCALE_REPORT']) {
      console.log(
        `risk evaluation: ${before.toFixed(2)} ms per observation of 200 rules among 10,000 (${Math.round((200 * 1000) / before)} rule evaluations/s), ` +
          `${after.toFixed(2)} ms among 20,000`,
      );
    }
    // Loose: a shared CPU makes timings noisy, but a scan of every rule would double the cost.
    expect(after).toBeLessThan(before * 3);
  }, 120_000);
});
