import { type ConfigOf, parsers, type ServiceConfig } from '@service/service-runtime';
import { privateHostAllowlist } from './app/domain/url-policy.js';

function hexKey(raw: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(raw)) throw new Error('must be 64 hex characters (32 bytes, e.g. `openssl rand -hex 32`)');
  return Buffer.from(raw, 'hex');
}

function positiveNumber(raw: string): number {
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(value > 0) || value > 1)
    throw new Error(`must be a number greater than 0 and at most 1, got "${raw}"`);
  return value;
}

export const webhookConfigSpec = {
  WEBHOOK_SECRET_ENCRYPTION_KEY: {
    description: 'AES-256-GCM key that encrypts signing secrets at rest, 64 hex characters',
    parse: hexKey,
  },
  WEBHOOK_PRIVATE_HOST_ALLOWLIST: {
    description:
      'local development only: comma-separated receiver hosts (e.g. 127.0.0.1,localhost) that may be or resolve to private, loopback or link-local addresses; every other host must resolve to public addresses only; empty by default, refused in production',
    default: '',
    parse: privateHostAllowlist,
  },
  WEBHOOK_DELIVERY_TIMEOUT_MS: {
    description: 'how long one delivery attempt may take before it is cut and retried',
    default: '30000',
    parse: parsers.integer(50, 120_000),
  },
  WEBHOOK_RETRY_SCHEDULE_SCALE: {
    description: 'multiplies every retry delay (1 in production; tests shrink the 24 h schedule)',
    default: '1',
    parse: positiveNumber,
  },
  WEBHOOK_POLL_INTERVAL_MS: {
    description: 'how often a replica looks for due deliveries it was not woken for (retries, other replicas)',
    default: '250',
    parse: parsers.integer(10, 60_000),
  },
  WEBHOOK_EVENT_LINGER_MS: {
    description:
      'how long a consumed event may wait for others before a smaller batch is written (fewer, fuller statements under load; 0 writes as soon as a writer is free)',
    // 10 ms: under write load, several times fewer and fuller fan-out statements than 0.
    default: '10',
    parse: parsers.integer(0, 1_000),
  },
  WEBHOOK_EVENT_ACK_WAIT_MS: {
    description: 'how long an event handed to a replica that died stays unacknowledged before another replica gets it',
    default: '30000',
    parse: parsers.integer(500, 600_000),
  },
  // 64: more does not drain a backlog faster; the per-endpoint cap below, not this one, bounds it.
  WEBHOOK_CONCURRENCY: {
    description: 'delivery attempts one replica runs at the same time',
    default: '64',
    parse: parsers.integer(1, 1024),
  },
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: {
    description: "requests open to one registration's receiver across replicas, so a slow receiver cannot hold every slot",
    // Deliveries per second to one receiver are at most this over the time a slot is held (claim to
    // answer): 1,000/s at 16-30 ms a slot needs 16-30; 32 meets the bench's backlog target
    // (tools/bench/README.md).
    default: '32',
    parse: parsers.integer(1, 1024),
  },
  WEBHOOK_CONCURRENCY_PER_ORGANIZATION: {
    description:
      "requests open to all of one organization's receivers across replicas; claims take the organizations with due deliveries in turn, so one tenant's slow receivers cannot hold every slot",
    // The per-endpoint default: one organization's busiest receiver keeps its rate (the bench's one
    // registration), its other receivers share the same slots, and half of one replica's slots stay
    // for the others.
    default: '32',
    parse: parsers.integer(1, 4096),
  },
  WEBHOOK_MAX_REGISTRATIONS_PER_ORGANIZATION: {
    description:
      "active registrations per organization and family (three families: `webhooks`, `webhook-endpoints`, gvault's; so at most 48 per organization at the default 16); one more in a family is refused with 409 webhook_limit_reached",
    // Stripe's limit on webhook endpoints per account.
    default: '16',
    parse: parsers.integer(1, 1_000),
  },
  WEBHOOK_SLOW_RECEIVER_TIMEOUT_MS: {
    description:
      'timeout of the attempts to a receiver whose last attempt from this replica timed out, until it answers within it again (capped at WEBHOOK_DELIVERY_TIMEOUT_MS), so a receiver that holds connections holds slots for less time',
    default: '5000',
    parse: parsers.integer(50, 120_000),
  },
};

export type WebhookConfig = ServiceConfig & ConfigOf<typeof webhookConfigSpec>;
