import createClient, { type Client } from 'openapi-fetch';
import { ServiceApiError } from './errors.js';
import type { paths } from './generated/openapi.js';
import { type CallOptions, type RequestOptions, retryingFetch, type RetryOptions } from './transport.js';

/** Base URLs of the hosted environments. */
export const ENVIRONMENTS = {
  sandbox: 'https://sandbox.api.service.example',
  production: 'https://api.service.example',
} as const;

export type Environment = keyof typeof ENVIRONMENTS;

export interface ServiceClientOptions {
  /** An organization API key (`service_sandbox_...` / `service_prod_...`). Give this or `token`. */
  apiKey?: string;
  /** A JWT of an issuer the gateway trusts. Give this or `apiKey`. */
  token?: string;
  /** The API's base URL, e.g. `http://127.0.0.1:3000` under `npm start`. Give this or `environment`. */
  baseUrl?: string;
  /** A hosted environment; its key prefix must match the API key's. */
  environment?: Environment;
  /** Retries of 429, retryable 503 and network errors (see {@link RetryOptions}). */
  retry?: RetryOptions;
  /** How long one attempt may take, answer body included, before it fails as `ServiceTimeoutError` (default 80 000 ms). */
  timeoutMs?: number;
  /** The fetch to send with (default `globalThis.fetch`). */
  fetch?: (request: Request) => Promise<Response>;
  /** Extra headers sent with every request (e.g. `Request-Id`). */
  headers?: Record<string, string>;
}

/** An answer as it came: status, parsed body and headers. */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface SendOptions extends RequestOptions {
  query?: object;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, with `content-type: application/json` (e.g. to try a malformed body). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** The body carries its idempotency key (`requestId`): resent after a network error too. */
  idempotent?: boolean;
}

function resolveBaseUrl(options: ServiceClientOptions): string {
  if (options.baseUrl) return options.baseUrl.replace(/\/+$/, '');
  if (!options.environment) throw new TypeError('ServiceClient needs baseUrl or environment.');
  const expected = options.environment === 'sandbox' ? 'service_sandbox_' : 'service_prod_';
  if (options.apiKey && !options.apiKey.startsWith(expected)) {
    throw new TypeError(`This API key is not a ${options.environment} key (expected the prefix ${expected}).`);
  }
  return ENVIRONMENTS[options.environment];
}

function queryString(query: object | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function parse(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** What every resource group shares: the typed openapi-fetch client and the raw sender. */
export class ClientCore {
  readonly baseUrl: string;
  /** The generated, fully typed client (openapi-fetch) over the same transport. */
  readonly api: Client<paths>;
  private readonly transport: (request: Request, call?: CallOptions) => Promise<Response>;
  private readonly headers: Record<string, string>;

  constructor(options: ServiceClientOptions) {
    const credential = options.apiKey ?? options.token;
    if (!credential) throw new TypeError('ServiceClient needs apiKey or token.');
    this.baseUrl = resolveBaseUrl(options);
    this.transport = retryingFetch({ retry: options.retry, timeoutMs: options.timeoutMs, fetch: options.fetch });
    this.headers = { ...options.headers, authorization: `Bearer ${credential}` };
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: this.fetchFor(), headers: this.headers });
  }

  /** The transport as a fetch for one call's settings (openapi-fetch's per-request `fetch`). */
  fetchFor(call: CallOptions = {}): (request: Request) => Promise<Response> {
    return (request) => this.transport(request, call);
  }

  /** One request, whatever its status (retried like every other: see {@link RetryOptions}). */
  async send<T = unknown>(method: string, path: string, options: SendOptions = {}): Promise<ApiResponse<T>> {
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const request = new Request(`${this.baseUrl}${path}${queryString(options.query)}`, {
      method,
      headers: { ...this.headers, ...(body !== undefined && { 'content-type': 'application/json' }), ...options.headers },
      body,
    });
    const { signal, timeoutMs, maxAttempts, idempotent } = options;
    const response = await this.transport(request, { signal, timeoutMs, maxAttempts, idempotent });
    return { status: response.status, body: (await parse(response)) as T, headers: response.headers };
  }

  /** One request whose 2xx body is returned; anything else throws {@link ServiceApiError}. */
  async call<T>(method: string, path: string, options: SendOptions = {}): Promise<T> {
    const reply = await this.send<T>(method, path, options);
    if (reply.status >= 200 && reply.status < 300) return reply.body;
    throw new ServiceApiError(reply.status, reply.body, reply.headers.get('request-id') ?? undefined);
  }

  /** The data of an openapi-fetch result, or its error as {@link ServiceApiError}. */
  unwrap<D>(result: { data?: D; error?: unknown; response: Response }): D {
    if (result.response.ok) return result.data as D;
    throw new ServiceApiError(result.response.status, result.error, result.response.headers.get('request-id') ?? undefined);
  }
}

/** A fresh idempotency key (a version-4 UUID). */
export const newIdempotencyKey = (): string => globalThis.crypto.randomUUID();

/** `body` with a `requestId`: the caller's, or a new one, kept for every retry of this call. */
export function withRequestId<B extends { requestId?: string }>(body: B): B & { requestId: string } {
  return { ...body, requestId: body.requestId ?? newIdempotencyKey() };
}
