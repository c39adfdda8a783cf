import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { RISK_SOURCES, sourceOf, sourcesOf } from './catalogue.js';

/**
 * risk-service keeps a copy of the catalogue's ids and figures (a service reads no other
 * service's code): this reads wallet-service's catalogue as text and fails when they part.
 */
const WALLET_CATALOGUE = readFileSync(new URL('../../../../wallet-service/src/app/domain/catalogue/sources.ts', import.meta.url), 'utf8');

/** The text of one source's entry in wallet-service's list: from its id to the next entry. */
function entryOf(id: string): string {
  const start = WALLET_CATALOGUE.indexOf(`id: '${id}'`);
  if (start < 0) throw new Error(`${id} is not in wallet-service's catalogue`);
  const next = WALLET_CATALOGUE.indexOf("id: 'service-", start + 1);
  return WALLET_CATALOGUE.slice(start, next < 0 ? undefined : next);
}

const digits = (value: number) => value.toLocaleString('en-US').replace(/,/g, '_');

describe("risk-service's copy of the yield-source catalogue", () => {
  it('has every source of wallet-service, and no other', () => {
    const walletIds = [...WALLET_CATALOGUE.matchAll(/^\s+id: '([^']+)',$/gm)].map((match) => match[1]);
    expect(RISK_SOURCES.map((source) => source.id).sort()).toEqual(walletIds.sort());
  });

  it.each(RISK_SOURCES.map((source) => [source.id, source] as const))('%s has the catalogue figures', (_id, source) => {
    const entry = entryOf(source.id);
    expect(entry).toContain(`protocol: '${source.protocol}'`);
    expect(entry).toContain(`name: '${source.label}`);
    expect(entry).toMatch(new RegExp(`(apyBps|currentApyBps): ${source.apyBps}\\b`));
    expect(entry).toContain(`${digits(source.tvlUsd)},`);
    // JAAA's holdings are a constant of their own, outside the entry.
    expect(entry.includes('JAAA_HOLDINGS') ? WALLET_CATALOGUE : entry).toMatch(new RegExp(`'cash', ${source.liquidityPct}\\]`));
  });

  it('finds a source by id in its environment only', () => {
    expect(sourcesOf('sandbox')).toHaveLength(4);
    expect(sourceOf('sandbox', 'service-ustb-vault')?.apyBps).toBe(420);
    expect(sourceOf('production', 'nope')).toBeUndefined();
  });
});
