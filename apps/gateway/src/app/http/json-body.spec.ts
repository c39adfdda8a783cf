import { describe, expect, it } from '@jest/globals';
import { JSON_BODY_LIMITS, jsonShapeProblem } from './json-body.js';

const limits = { bytes: 1_000, depth: 4, keys: 3 };

describe('jsonShapeProblem', () => {
  it('accepts bodies within the limits, whatever their strings hold', () => {
    expect(jsonShapeProblem('{"a":[{"b":[1]}],"c":"{[{[{[:::","d":"\\\\"}', { ...limits, keys: 4 })).toBeUndefined();
    expect(jsonShapeProblem('"[[[[[[["', limits)).toBeUndefined();
    expect(jsonShapeProblem('{"quote \\" and [":1}', limits)).toBeUndefined();
  });

  it('names the depth limit when objects and arrays nest deeper', () => {
    expect(jsonShapeProblem('[[[[1]]]]', limits)).toBeUndefined();
    expect(jsonShapeProblem('[[[[[1]]]]]', limits)).toBe('The request body is nested more than 4 levels deep.');
    expect(jsonShapeProblem('{"a":{"b":[{"c":[]}]}}', limits)).toBe('The request body is nested more than 4 levels deep.');
  });

  it('names the key limit, counting nested keys', () => {
    expect(jsonShapeProblem('{"a":1,"b":{"c":2}}', limits)).toBeUndefined();
    expect(jsonShapeProblem('{"a":1,"b":{"c":2,"d":3}}', limits)).toBe('The request body has more than 3 keys.');
  });

  it('reads a 10,000-deep array or a 100,000-key object in one linear pass, stopping at the limit', () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const wide = `{${Array.from({ length: 100_000 }, (_, index) => `"k${index}":0`).join(',')}}`;
    expect(jsonShapeProblem(deep, JSON_BODY_LIMITS)).toMatch(/nested more than 32 levels/);
    expect(jsonShapeProblem(wide, JSON_BODY_LIMITS)).toMatch(/more than 1024 keys/);
  });
});
