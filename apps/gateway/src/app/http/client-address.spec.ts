import { describe, expect, it } from '@jest/globals';
import type { FastifyRequest } from 'fastify';
import { clientAddressOf } from './client-address.js';

const request = (headers: Record<string, string | string[]>) =>
  ({ headers, socket: { remoteAddress: '10.1.2.3' } }) as unknown as FastifyRequest;

describe('clientAddressOf', () => {
  it("is the connection's peer unless a trusted header is configured, whatever the client writes", () => {
    expect(clientAddressOf(request({ 'x-forwarded-for': '203.0.113.9' }), '')).toBe('10.1.2.3');
  });

  it("takes the last entry of the configured header: the address the trusted proxy saw, not the client's own words", () => {
    expect(clientAddressOf(request({ 'x-forwarded-for': '198.51.100.1, 203.0.113.9' }), 'x-forwarded-for')).toBe('203.0.113.9');
    expect(clientAddressOf(request({ 'x-real-ip': ['198.51.100.1', '203.0.113.7'] }), 'x-real-ip')).toBe('203.0.113.7');
  });

  it('falls back to the peer when the configured header is missing or empty', () => {
    expect(clientAddressOf(request({}), 'x-forwarded-for')).toBe('10.1.2.3');
    expect(clientAddressOf(request({ 'x-forwarded-for': ' ' }), 'x-forwarded-for')).toBe('10.1.2.3');
  });
});
