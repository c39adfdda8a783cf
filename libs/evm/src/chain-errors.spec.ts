import { describe, expect, it } from '@jest/globals';
import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { chainErrorLogFields } from './index.js';

const KEYED_URL = 'https://sepolia.example-provider.io/v3/0123456789abcdef-provider-key';

describe('chainErrorLogFields', () => {
  it('says what failed and why, without the RPC URL a provider key is part of', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:8545'), { code: 'ECONNREFUSED' });
    const error = new HttpRequestError({
      url: KEYED_URL,
      body: { method: 'eth_estimateGas' },
      cause: new TypeError('fetch failed', { cause: refused }),
    });
    expect(`${error.message}${error.stack ?? ''}`).toContain('provider-key');

    const fields = chainErrorLogFields(error);

    expect(fields).toEqual({ error: 'HTTP request failed: fetch failed: connect ECONNREFUSED 10.0.0.5:8545' });
    expect(JSON.stringify(fields)).not.toContain('provider-key');
  });

  it('keeps a timeout and a node error short as well', () => {
    expect(chainErrorLogFields(new TimeoutError({ url: KEYED_URL, body: { method: 'eth_sendRawTransaction' } }))).toEqual({
      error: 'The request took too long to respond: The request timed out',
    });
    const rejected = new RpcRequestError({
      url: KEYED_URL,
      body: { method: 'eth_sendRawTransaction' },
      error: { code: -32000, message: 'nonce too low' },
    });
    expect(chainErrorLogFields(rejected)).toEqual({ error: 'RPC Request failed: nonce too low' });
  });

  it('names a root cause without a message by its code', () => {
    const reset = Object.assign(new Error(''), { code: 'ECONNRESET' });
    const error = new HttpRequestError({ url: KEYED_URL, cause: new TypeError('fetch failed', { cause: reset }) });

    expect(chainErrorLogFields(error)).toEqual({ error: 'HTTP request failed: fetch failed: ECONNRESET' });
  });

  it('leaves any other error to the logger, stack included', () => {
    const error = new Error('relation "allowlist_changes" does not exist');

    expect(chainErrorLogFields(error)).toEqual({ err: error });
  });
});
