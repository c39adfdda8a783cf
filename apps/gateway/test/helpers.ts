import { expect } from '@jest/globals';

export interface HttpResult {
  status: number;
  headers: Headers;
  body: unknown;
  elapsedMs: number;
}

export async function call(url: string, options: { token?: string; method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<HttpResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const started = performance.now();
  const response = await fetch(url, { method: options.method ?? 'GET', headers, body: options.body });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON; keep the text
  }
  return { status: response.status, headers: response.headers, body, elapsedMs: performance.now() - started };
}

export function expectUnauthenticated(result: HttpResult): void {
  expect(result.status).toBe(401);
  expect(result.body).toEqual({ error: expect.any(String), message: expect.any(String), code: 'unauthenticated' });
}
