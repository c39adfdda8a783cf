import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { ServiceClient } from './index.js';

/** Every operation of the checked-in OpenAPI document, as `METHOD /path/{param}`. */
const document = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { deprecated?: boolean }>>;
};
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods)
    .filter(([, operation]) => !operation.deprecated)
    .map(([method]) => `${method.toUpperCase()} ${path}`),
);
const templates = Object.keys(document.paths).map((path) => ({ path, pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));

/** Which documented operation a request went to (the most literal template wins). */
function operationOf(request: Request): string {
  const { pathname } = new URL(request.url);
  const matches = templates
    .filter(({ pattern }) => pattern.test(pathname))
    .sort((a, b) => b.path.replace(/\{[^}]+\}/g, '').length - a.path.replace(/\{[^}]+\}/g, '').length);
  return `${request.method} ${matches[0]?.path ?? pathname}`;
}

describe('the resource groups', () => {
  // A route added to the API needs a method in src/resources.ts and a call here (after `sdk:generate`).
  it('reach every operation of the OpenAPI document but the deprecated ones', async () => {
    const reached = new Set<string>();
    const fetch = async (request: Request) => {
      reached.add(operationOf(request));
      const body = request.url.includes('approval-request') ? { stampPayload: '{}', turnkeyRequest: {} } : { data: [], nextCursor: null };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const sdk = new ServiceClient({ apiKey: 'service_sandbox_x', baseUrl: 'http://sdk.test', fetch });
    const id = '0f6f3c1e-4c7b-4a55-9d5e-2f0f7b8f9a10';
    const calls: Promise<unknown>[] = [
      sdk.system.ping(),
      sdk.wallets.create({ strategy: { allocations: {} } }),
      sdk.wallets.list().page(),
      sdk.wallets.get(id),
      sdk.wallets.update(id, { label: 'x' }),
      sdk.wallets.updateStrategy(id, { allocations: {} }),
      sdk.wallets.allocate(id, { allocations: [] }),
      sdk.wallets.previewAllocation(id, { allocations: [] }),
      sdk.wallets.yield(id),
      sdk.wallets.yieldSources().page(),
      sdk.wallets.enableDepositAddress(id, 'stellar_testnet'),
      sdk.deposits.list(id).page(),
      sdk.deposits.get(id, id),
      sdk.deposits.lookup(id, { txHash: '0x1' }),
      sdk.deposits.simulate(id, { amountUsd: '1' }),
      sdk.withdrawals.create(id, { destinationChain: 'ethereum_sepolia', amountUsd: '1', destinationAddress: '0x1' } as never),
      sdk.withdrawals.preview(id, {} as never),
      sdk.withdrawals.list(id).page(),
      sdk.withdrawals.get(id, id),
      sdk.withdrawals.cancel(id, id),
      sdk.withdrawals.retryPayout(id, id, id),
      sdk.withdrawals.cancelPayout(id, id, id),
      sdk.addressBook.create({} as never),
      sdk.addressBook.list().page(),
      sdk.addressBook.remove(id),
      sdk.activity.list().page(),
      sdk.accounting.periodSummary({ walletId: id, start: '2026-01-01T00:00:00Z', end: '2026-02-01T00:00:00Z' }),
      sdk.accounting.activity({ scope: 'organization', startAt: '2026-01-01T00:00:00Z', endAt: '2026-02-01T00:00:00Z' }).page(),
      sdk.wallets.activity(id).page(),
      sdk.risk.rules.create({} as never),
      sdk.risk.rules.list().page(),
      sdk.risk.rules.update(id, {}),
      sdk.risk.rules.remove(id),
      sdk.risk.alerts.list().page(),
      sdk.risk.actions.list().page(),
      sdk.risk.actions.decide(id, 'approved'),
      sdk.risk.metrics.list(),
      sdk.risk.metrics.inject({} as never),
      sdk.gvaults.yieldSources(),
      sdk.gvaults.allowlist('service-ustb-vault', '0x1'),
      sdk.microvaults.setStrategy(id, {} as never),
      sdk.microvaults.setPause(id, { operation: 'subscriptions', paused: true }),
      sdk.microvaults.pauseStatus(id),
      sdk.microvaults.tasks(id).page(),
      sdk.microvaults.task(id),
      sdk.apiKeys.create({} as never),
      sdk.apiKeys.list().page(),
      sdk.apiKeys.get(id),
      sdk.apiKeys.revoke(id),
      sdk.apiKeys.roll(id),
      sdk.approvals.createApprover(
        { label: 'k', publicKey: '02' },
        { stamp: async () => ({ stampHeaderName: 'X-Stamp', stampHeaderValue: 's' }) },
      ),
      sdk.approvals.approvers().page(),
      sdk.approvals.deleteApprover(id),
      sdk.approvals.policy(),
      sdk.approvals.setPolicy({ withdrawals: 'all', quorum: 1 }),
      sdk.approvals.audit().page(),
      sdk.approvals.pendingActivities(),
      sdk.approvals.voteWith({ stamp: async () => ({ stampHeaderName: 'X-Stamp', stampHeaderValue: 's' }) }, id),
      ...[sdk.webhooks, sdk.webhookEndpoints, sdk.gvaults.webhooks].flatMap((family) => [
        family.create({ url: 'https://example.com', events: [] }),
        family.list().page(),
        family.get(id),
        family.update(id, {}),
        family.remove(id),
        family.events().page(),
        family.events(id).page(),
        family.retry(id, id),
        family.test(id),
        family.rotateSecret(id),
      ]),
    ];
    await Promise.all(calls);
    expect([...reached].sort()).toEqual([...operations].sort());
  });
});
