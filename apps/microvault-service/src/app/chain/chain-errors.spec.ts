import { describe, expect, it } from '@jest/globals';
import { HttpRequestError, TimeoutError } from 'viem';
import { chainErrorForLog } from './chain-errors.js';

const KEYED_URL = 'https://sepolia.example-provider.io/v3/0123456789abcdef-provider-key';

describe('chainErrorForLog', () => {
  it('says what failed and why, without the RPC URL a provider key can be part of', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:8545'), { code: 'ECONNREFUSED' });
    const error = new HttpRequestError({ url: KEYED_URL, body: { method: 'eth_estimateGas' }, cause: new TypeError('fetch failed', { cause: refused }) });
    expect(error.message).toContain('provider-key');

    const logged = chainErrorForLog(error);

    expect(logged).toBe('HTTP request failed: fetch failed: connect ECONNREFUSED 10.0.0.5:8545');
    expect(logged).not.toContain('provider-key');
  });

  it('keeps a timeout short as well', () => {
    const logged = chainErrorForLog(new TimeoutError({ url: KEYED_URL, body: { method: 'eth_sendRawTransaction' } }));

    expect(logged).toBe('The request took too long to respond: The request timed out');
  });

  it('gives other errors their message', () => {
    expect(chainErrorForLog(new Error('vault deployment 0xabc reverted'))).toBe('vault deployment 0xabc reverted');
  });
});
