import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type InProcessService, startServiceInProcess } from '@service/service-testing';
import { gvaultConfigSpec } from '../config.js';
import { AllowlistService } from './allowlist/allowlist.service.js';
import { AppModule } from './app.module.js';
import { YieldSourcesMsController } from './yield-sources/yield-sources-ms.controller.js';

/**
 * gvault-service in process, on its own migrated schema and NATS server, without a chain: its
 * RPC URL is a local node that cannot answer (it drops the connection, never answers or fails,
 * as the e2e suite's RPC proxy makes anvil do), so every chain read fails the way it fails in
 * production when the node is down. The yield-source
 * catalogue and the allowlist's refusals of `allowlist.e2e.spec.ts` without a gateway, HTTP,
 * anvil or a build; the allowlist's answers from a chain stay in the e2e suite.
 */
let service: InProcessService;
let allowlist: AllowlistService;
let yieldSources: YieldSourcesMsController;
/** The chain node: how it fails, and the JSON-RPC calls it saw per method. */
const chain = { mode: 'error' as 'refuse' | 'hang' | 'error', calls: new Map<string, number>() };
let node: Server;

beforeAll(async () => {
  node = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { method } = JSON.parse(Buffer.concat(chunks).toString()) as { method: string };
      chain.calls.set(method, (chain.calls.get(method) ?? 0) + 1);
      if (chain.mode === 'refuse') request.socket.destroy();
      else if (chain.mode === 'error') response.writeHead(502).end('bad gateway');
    });
  });
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
  service = await startServiceInProcess({
    name: 'gvault',
    module: AppModule.forRoot,
    spec: gvaultConfigSpec,
    env: { CHAIN_RPC_URL_ETHEREUM_SEPOLIA: url, CHAIN_RPC_TIMEOUT_MS: '300', CHAIN_POLL_INTERVAL_MS: '600000', CHAIN_START_BLOCK: '0' },
  });
  allowlist = service.running.app.get(AllowlistService);
  yieldSources = service.running.app.get(YieldSourcesMsController);
});

afterAll(async () => {
  await service?.stop();
  node?.closeAllConnections();
  await new Promise((resolve) => node?.close(resolve));
});

let addresses = 0;
const freshAddress = () => `0x${(0xa11ce000 + (addresses += 1)).toString(16).padStart(40, '0')}`;
const CHAIN_UNREADABLE = {
  name: 'ServiceError',
  code: 'service_temporarily_unavailable',
  message: 'The chain could not be read. Retry shortly.',
  retryable: true,
};

describe('yield sources', () => {
  it('lists USTB on Sepolia in sandbox with exactly the interface fields', () => {
    expect(yieldSources.list()).toEqual({
      data: [
        {
          id: 'service-ustb-vault',
          name: 'Superstate Short Duration US Government Securities Fund (USTB)',
          interface: 'service_ustb_v1',
          chain: 'ethereum_sepolia',
          contractAddress: '0x39727692cF58137Bd8c401eFE87Cc8A190D62ead',
          asset: { symbol: 'USDC', contractAddress: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', decimals: 6 },
        },
      ],
    });
  });
});

describe('the allowlist without a chain', () => {
  it.each([
    ['refuses connections', 'refuse'],
    ['never answers', 'hang'],
    ['fails', 'error'],
  ] as const)('refuses a check with a retryable service_temporarily_unavailable when the chain node %s', async (_case, mode) => {
    chain.mode = mode;
    try {
      const started = Date.now();
      await expect(allowlist.check(freshAddress())).rejects.toMatchObject(CHAIN_UNREADABLE);
      expect(Date.now() - started).toBeLessThan(2_500);
    } finally {
      chain.mode = 'error';
    }
  });

  it('keeps no failed answer: the next identical check asks the chain again', async () => {
    const address = freshAddress();
    await expect(allowlist.check(address)).rejects.toMatchObject(CHAIN_UNREADABLE);
    const before = chain.calls.get('eth_blockNumber') ?? 0;
    await expect(allowlist.check(address.toUpperCase().replace('0X', '0x'))).rejects.toMatchObject(CHAIN_UNREADABLE);
    expect(chain.calls.get('eth_blockNumber') ?? 0).toBeGreaterThan(before);
  });
});
