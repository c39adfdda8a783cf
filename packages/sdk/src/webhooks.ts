import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];
/** ISO 8601 UTC with milliseconds. */
export type Timestamp = string;
/** USD as a string with six decimals. */
export type UsdAmount = string;

/** The resource each portfolio wallet event carries beside `event`, `observedAt` and `walletId`. */
export interface PortfolioWalletEventResources {
  'portfolio_wallet.status_changed': { wallet: { id: string; status: string } };
  'portfolio_wallet.deposit.status_changed': { deposit: Schemas['DepositDto'] };
  'portfolio_wallet.withdrawal.status_changed': { withdrawal: Schemas['WithdrawalDto'] };
  'portfolio_wallet.withdrawal.payout.status_changed': { withdrawalId: string; payoutLeg: Schemas['PayoutLegDto'] };
  'portfolio_wallet.approval.status_changed': {
    approval: { id: string; kind: string; chain: string; status: string; createdAt: Timestamp; updatedAt: Timestamp };
  };
  'portfolio_wallet.strategy.status_changed': {
    strategy: { status: string; allocations: Record<string, { yieldSourceId: string; pct: number }[]> };
  };
  'portfolio_wallet.rebalance.status_changed': {
    rebalance: {
      id: string;
      requestId: string;
      status: 'created' | 'processing' | 'completed' | 'failed' | 'cancelled';
      allocations: { from: string; to: string; amountUsd: UsdAmount }[];
      createdAt: Timestamp;
      completedAt: Timestamp | null;
    };
  };
  'portfolio_wallet.risk.alert.triggered': { alert: Schemas['RiskAlertDto'] };
  'portfolio_wallet.risk.alert.resolved': { alert: Schemas['RiskAlertDto'] };
  'portfolio_wallet.risk.action.status_changed': { action: Schemas['RiskActionDto'] };
  'portfolio_wallet.risk.unwind.completed': {
    unwind: { actionId: string; rebalanceId: string; yieldSourceId: string; amountUsd: UsdAmount; completedAt: Timestamp };
  };
  'portfolio_wallet.balance.updated': { balance: { totalUsd: UsdAmount; cashUsd: UsdAmount; investedUsd: UsdAmount } };
  'portfolio_wallet.position.updated': { position: { id: string; kind: string; amountUsd: UsdAmount } };
}

export type PortfolioWalletEventType = keyof PortfolioWalletEventResources;

/** A delivery to a `/v2/webhooks` or `/v2/webhook-endpoints` receiver, discriminated by `event`. */
export type PortfolioWalletEvent = {
  [T in PortfolioWalletEventType]: { event: T; observedAt: Timestamp; walletId: string } & PortfolioWalletEventResources[T];
}[PortfolioWalletEventType];

/** A delivery to a `/v2/gvaults/webhooks` receiver, discriminated by `type`. */
export interface GVaultAllowlistUpdatedEvent {
  id: string;
  type: 'gvault.allowlist.updated';
  createdAt: Timestamp;
  data: { gVaultId: string; chain: string; address: string; allowed: boolean; blockNumber: string; txHash: string };
}

/** `POST <family>/{id}/test` deliveries. */
export interface PortfolioWalletTestEvent {
  event: 'webhook.test';
  observedAt: Timestamp;
  webhookId: string;
}
export interface GVaultTestEvent {
  id: string;
  type: 'webhook.test';
  createdAt: Timestamp;
  data: { webhookId: string };
}

/** Any body a receiver can get: narrow on `'event' in body` then `event`, or on `type`. */
export type WebhookEvent = PortfolioWalletEvent | PortfolioWalletTestEvent | GVaultAllowlistUpdatedEvent | GVaultTestEvent;

export type WebhookVerificationFailure = 'missing_signature' | 'invalid_signature' | 'timestamp_out_of_tolerance' | 'invalid_payload';

/** The delivery cannot be trusted: answer 400 (or 401) and do not act on it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** The request body exactly as received, before any JSON parsing. */
  payload: string | Uint8Array;
  /** The request headers (Node's `IncomingHttpHeaders`, a fetch `Headers` or a plain object). */
  headers: WebhookHeaders;
  /** The registration's secret: its 64 hex characters as returned on creation (or `whsec_` + base64 of them). */
  secret: string;
  /** How far `t` may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The clock, in ms (default `Date.now()`). */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/** The HMAC key: the secret's text; a Standard Webhooks `whsec_` secret carries the same bytes in base64. */
function keyOf(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
}

function sameBytes(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function checkTimestamp(t: string, toleranceSeconds: number, now: number): void {
  const seconds = Number(t);
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(seconds))
    throw new WebhookVerificationError('invalid_signature', 'The signature timestamp is malformed.');
  if (Math.abs(now / 1000 - seconds) > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `The signature timestamp is more than ${toleranceSeconds} s from now.`,
    );
  }
}

/** `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
function verifyServiceSignature(value: string, body: Buffer, key: Buffer, toleranceSeconds: number, now: number): void {
  const parts = value.split(',').map((part) => part.trim().split('=', 2) as [string, string | undefined]);
  const t = parts.find(([name]) => name === 't')?.[1];
  const signatures = parts.filter(([name]) => name === 'v1').map(([, signature]) => signature ?? '');
  if (t === undefined || signatures.length === 0)
    throw new WebhookVerificationError('invalid_signature', 'Service-Signature is not `t=..,v1=..`.');
  checkTimestamp(t, toleranceSeconds, now);
  const expected = createHmac('sha256', key).update(`${t}.`).update(body).digest();
  if (!signatures.some((signature) => /^[0-9a-f]+$/i.test(signature) && sameBytes(Buffer.from(signature, 'hex'), expected))) {
    throw new WebhookVerificationError('invalid_signature', 'Service-Signature does not match the body.');
  }
}

/** Standard Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<t>.<body>">` (space-separated list). */
function verifyStandardSignature(
  id: string,
  t: string,
  value: string,
  body: Buffer,
  key: Buffer,
  toleranceSeconds: number,
  now: number,
): void {
  checkTimestamp(t, toleranceSeconds, now);
  const expected = createHmac('sha256', key).update(`${id}.${t}.`).update(body).digest();
  const signatures = value.split(' ').flatMap((entry) => {
    const [version, signature] = entry.split(',', 2);
    return version === 'v1' && signature ? [Buffer.from(signature, 'base64')] : [];
  });
  if (!signatures.some((signature) => sameBytes(signature, expected))) {
    throw new WebhookVerificationError('invalid_signature', 'webhook-signature does not match the body.');
  }
}

/**
 * Checks a delivery's signature over the raw body and its timestamp, then returns the parsed
 * event. Verifies `Service-Signature` when present, else the Standard Webhooks headers
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Comparisons take constant time.
 *
 * @throws {@link WebhookVerificationError} when no signature is present, none matches, the
 * timestamp is outside `toleranceSeconds`, or the body is not JSON.
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const { headers, secret, toleranceSeconds = 300, now = Date.now() } = options;
  const body = typeof options.payload === 'string' ? Buffer.from(options.payload, 'utf8') : Buffer.from(options.payload);
  const key = keyOf(secret);
  const service = header(headers, 'service-signature');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const standard = header(headers, 'webhook-signature');
  if (service !== undefined) verifyServiceSignature(service, body, key, toleranceSeconds, now);
  else if (id !== undefined && timestamp !== undefined && standard !== undefined)
    verifyStandardSignature(id, timestamp, standard, body, key, toleranceSeconds, now);
  else
    throw new WebhookVerificationError(
      'missing_signature',
      'The delivery carries neither Service-Signature nor the webhook-id/-timestamp/-signature headers.',
    );
  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'The signed body is not JSON.');
  }
}
