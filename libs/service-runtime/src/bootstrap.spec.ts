import { describe, expect, it } from '@jest/globals';
import { ServerNats } from '@nestjs/microservices';
import { ServiceNatsServer } from './bootstrap.js';

describe('ServiceNatsServer', () => {
  it("routes every pattern exactly as Nest's NATS server does", () => {
    const ours = new ServiceNatsServer({ servers: ['nats://127.0.0.1:4222'] });
    const nests = new ServerNats({ servers: ['nats://127.0.0.1:4222'] }) as unknown as { getRouteFromPattern(pattern: string): string };
    const patterns = [
      'gvault.yieldSources.list',
      'wallet.wallets.get',
      '{"cmd":"sum","role":"math"}',
      '{"role":"math","cmd":"sum"}',
      '["a","b"]',
      '"quoted"',
      '123',
      '-1',
      'true',
      'false',
      'null',
      'nullish.subject',
      'trueish',
      '{not json',
      '',
    ];
    for (const pattern of patterns) {
      expect([pattern, ours.getRouteFromPattern(pattern)]).toEqual([pattern, nests.getRouteFromPattern(pattern)]);
    }
  });
});
