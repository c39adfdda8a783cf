import { describe, expect, it } from '@jest/globals';
import { type HostLookup, ReceiverAddresses, type ResolvedAddress } from './receiver-address.js';

const PUBLIC: ResolvedAddress = { address: '93.184.216.34', family: 4 };
const OTHER: ResolvedAddress = { address: '93.184.216.35', family: 4 };
const production = { httpsOnly: true, privateHosts: new Set<string>() };

/** A resolver that answers from `answers` (by host, in turn) and counts its lookups. */
function resolver(answers: Record<string, (ResolvedAddress[] | Error)[]>) {
  const lookups: string[] = [];
  const lookupHost: HostLookup = async (host) => {
    lookups.push(host);
    const answer = answers[host]?.shift();
    if (!answer) throw new Error(`${host}: no answer left`);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { lookupHost, lookups };
}

describe('ReceiverAddresses', () => {
  it("keeps a host's checked address for a while, then looks the host up again", async () => {
    let now = 1_000_000;
    const { lookupHost, lookups } = resolver({ 'hooks.example.com': [[PUBLIC], [OTHER]] });
    const addresses = new ReceiverAddresses(production, lookupHost, () => now);
    const url = new URL('https://hooks.example.com/a');

    await expect(addresses.resolve(url)).resolves.toEqual(PUBLIC);
    now += 9_000;
    await expect(addresses.resolve(new URL('https://hooks.example.com/b'))).resolves.toEqual(PUBLIC);
    expect(lookups).toEqual(['hooks.example.com']);
    now += 2_000;
    await expect(addresses.resolve(url)).resolves.toEqual(OTHER);
    expect(lookups).toEqual(['hooks.example.com', 'hooks.example.com']);
  });

  it('makes one lookup for deliveries to one host that overlap', async () => {
    const { lookupHost, lookups } = resolver({ 'hooks.example.com': [[PUBLIC]] });
    const addresses = new ReceiverAddresses(production, lookupHost);
    const all = await Promise.all(Array.from({ length: 20 }, () => addresses.resolve(new URL('https://hooks.example.com/'))));
    expect(all).toEqual(Array.from({ length: 20 }, () => PUBLIC));
    expect(lookups).toHaveLength(1);
  });

  it('keeps no failure: a host that did not resolve, or resolved to a refused address, is looked up again', async () => {
    const { lookupHost, lookups } = resolver({
      'flaky.example.com': [new Error('ENOTFOUND flaky.example.com'), [PUBLIC]],
      'inside.example.com': [[{ address: '10.0.0.7', family: 4 }], [PUBLIC]],
    });
    const addresses = new ReceiverAddresses(production, lookupHost);
    await expect(addresses.resolve(new URL('https://flaky.example.com/'))).rejects.toThrow(/ENOTFOUND/);
    await expect(addresses.resolve(new URL('https://flaky.example.com/'))).resolves.toEqual(PUBLIC);
    await expect(addresses.resolve(new URL('https://inside.example.com/'))).rejects.toThrow(/private, loopback or link-local/);
    await expect(addresses.resolve(new URL('https://inside.example.com/'))).resolves.toEqual(PUBLIC);
    expect(lookups).toEqual(['flaky.example.com', 'flaky.example.com', 'inside.example.com', 'inside.example.com']);
  });

  it('refuses a host when any of its addresses is not public, and takes an IP literal as it is', async () => {
    const { lookupHost, lookups } = resolver({ 'mixed.example.com': [[PUBLIC, { address: '127.0.0.1', family: 4 }]] });
    const addresses = new ReceiverAddresses(production, lookupHost);
    await expect(addresses.resolve(new URL('https://mixed.example.com/'))).rejects.toThrow(/private, loopback or link-local/);
    await expect(addresses.resolve(new URL('https://93.184.216.34/'))).resolves.toEqual(PUBLIC);
    await expect(addresses.resolve(new URL('https://[::1]/'))).rejects.toThrow(/private, loopback or link-local/);
    expect(lookups).toEqual(['mixed.example.com']);
  });

  it('refuses, at delivery, a host that resolves into an IPv6 transition range, unless the host is on the allowlist', async () => {
    const transition = [
      '::ffff:a00:1',
      '::a00:1',
      '::ffff:0:a00:1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    ];
    const answers = Object.fromEntries(transition.map((address, index) => [`t${index}.example.com`, [[{ address, family: 6 as const }]]]));
    const { lookupHost } = resolver({ ...answers, 'dev.example.com': [[{ address: '64:ff9b::a00:1', family: 6 }]] });
    const addresses = new ReceiverAddresses(production, lookupHost);
    for (const index of transition.keys()) {
      await expect(addresses.resolve(new URL(`https://t${index}.example.com/`))).rejects.toThrow(/private, loopback or link-local/);
    }
    const local = new ReceiverAddresses({ httpsOnly: false, privateHosts: new Set(['dev.example.com']) }, lookupHost);
    await expect(local.resolve(new URL('http://dev.example.com/'))).resolves.toEqual({ address: '64:ff9b::a00:1', family: 6 });
  });
});
