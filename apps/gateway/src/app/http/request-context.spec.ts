import { describe, expect, it } from '@jest/globals';
import type { FastifyRequest } from 'fastify';
import { contextOf } from './request-context.js';

describe('contextOf', () => {
  it('refuses a request that reached a handler without a context as 401 unauthenticated', () => {
    expect(() => contextOf({ ctx: null } as FastifyRequest)).toThrow(expect.objectContaining({ code: 'unauthenticated', status: 401 }));
  });

  it('returns the context the auth hook put on the request', () => {
    const ctx = { orgId: 'org_a', principalId: 'user_1', role: 'member' as const, requestId: 'r1' };
    expect(contextOf({ ctx } as FastifyRequest)).toBe(ctx);
  });
});
