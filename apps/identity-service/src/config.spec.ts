import { describe, expect, it } from '@jest/globals';
import { parsePepper } from './config.js';

describe('IDENTITY_KEY_PEPPER', () => {
  it('takes 32 or more bytes as hex or base64', () => {
    expect(parsePepper('ab'.repeat(32))).toHaveLength(32);
    expect(parsePepper(Buffer.alloc(48, 1).toString('base64'))).toHaveLength(48);
    expect(parsePepper(Buffer.alloc(32, 250).toString('base64url'))).toHaveLength(32);
  });

  it('refuses anything shorter or not an encoding', () => {
    expect(() => parsePepper('ab'.repeat(31))).toThrow(/at least 32 bytes/);
    expect(() => parsePepper(Buffer.alloc(31, 1).toString('base64'))).toThrow(/at least 32 bytes/);
    expect(() => parsePepper('not a pepper at all, not even close!!')).toThrow(/at least 32 bytes/);
  });
});
