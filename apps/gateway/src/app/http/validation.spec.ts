import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ActivityQueryDto, WalletListQueryDto } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { validQuery } from './validation.js';

function failure(run: () => unknown): ServiceError {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a ServiceError');
}

describe('validQuery', () => {
  it('converts and checks a query, and gives a query string met again the same frozen outcome', () => {
    const url = '/v2/wallets?limit=5&status=idle';
    const first = validQuery(WalletListQueryDto, url, { limit: '5', status: 'idle' });
    expect(first).toBeInstanceOf(WalletListQueryDto);
    expect({ ...first }).toEqual({ limit: 5, status: ['idle'] });
    expect(validQuery(WalletListQueryDto, url, { limit: '5', status: 'idle' })).toEqual(first);
    // Shared by the requests with that query string: nobody can change it for the others.
    expect(() => ((first as { limit?: number }).limit = 6)).toThrow(TypeError);
    expect(() => first.status?.push('failed')).toThrow(TypeError);

    expect({ ...validQuery(WalletListQueryDto, '/v2/wallets', {}) }).toEqual({});
    expect({ ...validQuery(WalletListQueryDto, '/v2/wallets?limit=7', { limit: '7' }) }).toEqual({ limit: 7 });
  });

  it('refuses a bad query string each time it comes, with a new error naming what is wrong', () => {
    const url = '/v2/activity?limit=0';
    const errors = [1, 2].map(() => failure(() => validQuery(ActivityQueryDto, url, { limit: '0' })));
    for (const error of errors) {
      expect(error.code).toBe('validation_error');
      expect(error.message).toBe('limit must be an integer from 1 to 100.');
    }
    expect(errors[0]).not.toBe(errors[1]);

    const unknown = failure(() => validQuery(ActivityQueryDto, '/v2/activity?colour=red', { colour: 'red' }));
    expect(unknown.code).toBe('unknown_parameters');
    expect(unknown.message).toBe('Unknown query parameter: colour.');
  });

  it('keeps outcomes per DTO: the same query string is checked against each DTO on its own', () => {
    const url = '/v2/x?order=asc';
    expect({ ...validQuery(WalletListQueryDto, url, { order: 'asc' }) }).toEqual({ order: 'asc' });
    expect(failure(() => validQuery(ActivityQueryDto, url, { order: 'asc' })).code).toBe('unknown_parameters');
  });
});
