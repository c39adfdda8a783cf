import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort, startTestSystem, type TestSystem } from '@service/testing';
import { call } from './helpers.js';

let system: TestSystem;
let gateway: string;
let gvaultHealthPort: number;
/** The gateway's probe and metrics server (`HEALTH_PORT`), apart from its public port. */
let gatewayHealth: string;

async function scrape(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of one series, by its exact name and labels as Prometheus's text format writes them. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  gvaultHealthPort = await freePort();
  const gatewayHealthPort = await freePort();
  // Only gvault: wallet-service down makes its routes answer 503 (no responder).
  system = await startTestSystem({
    services: ['gvault'],
    serviceEnv: { gvault: { HEALTH_PORT: String(gvaultHealthPort) } },
    gatewayEnv: { HEALTH_PORT: String(gatewayHealthPort) },
  });
  gateway = system.gateways[0]!.url;
  gatewayHealth = `http://127.0.0.1:${gatewayHealthPort}`;
}, 90_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

describe('/metrics', () => {
  it('counts gateway requests by route template, method and status, and NATS requests by subject and outcome', async () => {
    const token = await system.auth.token({ sub: `user_${system.runId}` });
    const walletId = randomUUID();
    for (let index = 0; index < 3; index += 1) {
      expect((await call(`${gateway}/v2/gvaults/yield-sources`, { token })).status).toBe(200);
    }
    expect((await call(`${gateway}/v2/wallets/${walletId}`, { token })).status).toBe(503);
    expect((await call(`${gateway}/v2/nothing-here/${walletId}`, { token })).status).toBe(404);
    expect((await call(`${gateway}/readyz`)).status).toBe(200);

    const text = await scrape(`${gatewayHealth}/metrics`);
    expect(valueOf(text, 'http_requests_total{route="/v2/gvaults/yield-sources",method="GET",status="200"}')).toBe(3);
    expect(valueOf(text, 'http_request_duration_seconds_count{route="/v2/gvaults/yield-sources",method="GET",status="200"}')).toBe(3);
    expect(valueOf(text, 'http_requests_total{route="/v2/wallets/:id",method="GET",status="503"}')).toBe(1);
    expect(valueOf(text, 'http_requests_total{route="unmatched",method="GET",status="404"}')).toBe(1);
    // No ids or raw paths as label values; the probes and the scrape itself are not counted.
    expect(text).not.toContain(walletId);
    expect(text).not.toContain('route="/readyz"');
    expect(text).not.toContain('route="/metrics"');

    expect(valueOf(text, 'nats_client_requests_total{subject="gvault.yield-sources.list",outcome="ok"}')).toBe(3);
    expect(valueOf(text, 'nats_client_requests_total{subject="gvault.yield-sources.list",outcome="timeout"}')).toBe(0);
    expect(text).toMatch(/nats_client_requests_total\{subject="wallet\.[\w.]+",outcome="no_responder"\} 1/);
    expect(text).toContain('# TYPE gateway_rate_limit_rejections_total counter');
    // Process metrics.
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it("serves a service's metrics on its health port: the requests it handled, and process metrics", async () => {
    const text = await scrape(`http://127.0.0.1:${gvaultHealthPort}/metrics`);
    expect(valueOf(text, 'nats_server_requests_total{subject="gvault.yield-sources.list",outcome="ok"}')).toBeGreaterThanOrEqual(3);
    expect(
      valueOf(text, 'nats_server_request_duration_seconds_count{subject="gvault.yield-sources.list",outcome="ok"}'),
    ).toBeGreaterThanOrEqual(3);
    expect(text).toContain('process_resident_memory_bytes');
    expect((await fetch(`http://127.0.0.1:${gvaultHealthPort}/readyz`)).status).toBe(200);
  });

  it('is on the health port only: no authentication there, not in the OpenAPI document', async () => {
    expect((await fetch(`${gatewayHealth}/metrics`)).status).toBe(200);
    const document = (await call(`${gateway}/v2/openapi.json`)).body as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/v2/'))).toEqual([]);
  });

  it('keeps /metrics and the full readiness check (which names every service) off the public port', async () => {
    const token = await system.auth.token({ sub: `user_${system.runId}` });
    for (const credential of [undefined, token]) {
      const scraped = await call(`${gateway}/metrics`, credential ? { token: credential } : {});
      expect(scraped.status).not.toBe(200);
      expect(JSON.stringify(scraped.body)).not.toContain('process_cpu_seconds_total');
    }
    // The public /readyz answers for the gateway's own dependencies only, whatever the query.
    const publicFull = await call(`${gateway}/readyz?full=1`);
    expect(publicFull).toMatchObject({ status: 200, body: { status: 'ready', checks: { nats: 'ok', redis: 'ok' } } });
    expect(Object.keys((publicFull.body as { checks: object }).checks).sort()).toEqual(['nats', 'redis']);
    // On the health port: the probes and the full check, which names the service that is down (wallet).
    expect(await call(`${gatewayHealth}/healthz`)).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call(`${gatewayHealth}/readyz`)).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { nats: 'ok', redis: 'ok' } },
    });
    expect(await call(`${gatewayHealth}/readyz?full=1`)).toMatchObject({
      status: 503,
      body: { status: 'unavailable', checks: { gvault: 'ok', wallet: 'unavailable', nats: 'ok', redis: 'ok' } },
    });
  });
});
