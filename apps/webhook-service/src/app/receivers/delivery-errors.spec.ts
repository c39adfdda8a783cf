import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ReceiverAddresses } from './receiver-address.js';
import { WebhookSender } from './sender.js';

const local = { httpsOnly: false, privateHosts: new Set(['127.0.0.1', 'nowhere.invalid']) };
const RAW_TEXT = /127\.0\.0\.1|ECONN|ENOTFOUND|EAI_|getaddrinfo|SSL|ssl|:\d{2,5}/;

describe('delivery errors shown to tenants', () => {
  let server: Server;
  let port: number;
  let closedPort: number;
  const sender = new WebhookSender(local, 500);

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/hang') return;
      response.writeHead(503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
  });

  afterAll(async () => {
    sender.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([
    ['a refused connection', () => `http://127.0.0.1:${closedPort}/`, 'connection refused'],
    ['a receiver that never answers', () => `http://127.0.0.1:${port}/hang`, 'timed out after 500 ms'],
    ['https to a plain http server', () => `https://127.0.0.1:${port}/`, 'TLS error'],
    ['a host that does not resolve', () => 'http://nowhere.invalid/', 'DNS lookup failed'],
    ['a private address off the allowlist', () => `http://127.0.0.2:${port}/`, 'address not allowed'],
  ])('shows %s from a fixed vocabulary, the raw text only in the detail', async (_case, url, shown) => {
    const result = await sender.send(url(), '{}', {});
    expect(result).toMatchObject({ status: null, error: shown });
    expect(result.error).not.toMatch(RAW_TEXT);
    expect(result.detail).toEqual(expect.any(String));
  });

  it('shows an answer as HTTP <status>', async () => {
    expect(await sender.send(`http://127.0.0.1:${port}/`, '{}', {})).toMatchObject({ status: 503, error: 'HTTP 503' });
  });

  it('shows a policy refusal at delivery the same way through a shared address cache', async () => {
    const shared = new WebhookSender(local, 500, new ReceiverAddresses({ httpsOnly: false, privateHosts: new Set() }));
    expect(await shared.send(`http://127.0.0.1:${port}/`, '{}', {})).toMatchObject({ status: null, error: 'address not allowed' });
    shared.close();
  });
});
