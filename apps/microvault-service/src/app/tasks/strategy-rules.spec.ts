import { describe, expect, it } from '@jest/globals';
import { ServiceError } from '@service/errors';
import { checkStrategy } from './strategy-rules.js';

const source = (digit: string) => `0x${digit.repeat(64)}`;

describe('checkStrategy', () => {
  it('accepts targets and idle that total exactly 10000, including idle only', () => {
    expect(() => checkStrategy({ allocations: [{ sourceId: source('a'), targetBps: 7000 }], idleTargetBps: 3000 })).not.toThrow();
    expect(() => checkStrategy({ allocations: [], idleTargetBps: 10000 })).not.toThrow();
  });

  it('refuses another total with invalid_request naming the total', () => {
    let error: unknown;
    try {
      checkStrategy({ allocations: [{ sourceId: source('a'), targetBps: 7000 }], idleTargetBps: 3001 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'invalid_request', status: 400, message: expect.stringContaining('10001') });
  });

  it('refuses a source listed twice, whatever its case', () => {
    const allocations = [
      { sourceId: source('a'), targetBps: 5000 },
      { sourceId: source('A'), targetBps: 5000 },
    ];
    expect(() => checkStrategy({ allocations, idleTargetBps: 0 })).toThrow(/appears more than once/);
  });
});
