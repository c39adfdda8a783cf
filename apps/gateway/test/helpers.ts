import { request } from 'node:http';
import { expect } from '@jest/globals';

export interface HttpResult {
  status: number;
  headers: Headers;
  body: unknown;
  elapsedMs: number;
}

export async function call(
  url: string,
  options: { token?: string; method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const started = performance.now();
  const response = await fetch(url, { method: options.method ?? 'GET', headers, body: options.body });
  return {
    status: response.status,
    headers: response.headers,
    body: parsed(await response.text()),
    elapsedMs: performance.now() - started,
  };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A request whose path goes on the wire exactly as written: `fetch` would resolve dot segments
 * and percent-encode first. Bodies are sent as given, an empty string included, each request on a
 * connection of its own so one request's broken connection cannot fail the next. Rejects when the
 * connection fails or no answer comes within `timeoutMs`.
 */
export function raw(
  base: string,
  options: { path: string; method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number },
): Promise<HttpResult & { text: string }> {
  const { hostname, port } = new URL(base);
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: hostname, port, method: options.method ?? 'GET', path: options.path, headers: options.headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, headers, body: parsed(text), text, elapsedMs: performance.now() - started });
        });
      },
    );
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no response within ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

export function expectUnauthenticated(result: HttpResult): void {
  expect(result.status).toBe(401);
  expect(result.body).toEqual({ error: expect.any(String), message: expect.any(String), code: 'unauthenticated' });
}
