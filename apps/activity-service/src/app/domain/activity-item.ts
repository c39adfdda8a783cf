import { ACTIVITY_STATUSES, type ActivityItemDto, type ActivityStatus, type ActivityType, type DomainEvent } from '@service/contracts';
import { formatUsd, parseUsd } from '@service/money';

/** What the projection stores for one deposit, withdrawal or rebalance. */
export interface ProjectedItem {
  readonly orgId: string;
  readonly id: string;
  readonly walletId: string;
  readonly type: ActivityType;
  readonly status: ActivityStatus;
  readonly statusRank: number;
  readonly amountMicros: bigint;
  readonly timestamp: Date;
  readonly resource: Record<string, unknown>;
  readonly observedAt: Date;
  readonly eventId: string;
}

export type Projection =
  | { readonly kind: 'item'; readonly item: ProjectedItem }
  | { readonly kind: 'ignored' }
  | { readonly kind: 'malformed'; readonly reason: string };

/** The wallet events the feed is built from, and the nested object each one carries. */
export const PROJECTED_EVENTS: Readonly<Record<string, ActivityType>> = {
  'portfolio_wallet.deposit.status_changed': 'deposit',
  'portfolio_wallet.withdrawal.status_changed': 'withdrawal',
  'portfolio_wallet.rebalance.status_changed': 'rebalance',
};

/**
 * The event types the projection's consumer is delivered (a NATS subject filter over the types,
 * `*` one token): every projected type, and of the rest only types of the same shape, so the
 * wallet's other events (positions, balance, its own status: five of an allocation's eight) are
 * not delivered, acknowledged and recorded as processed for nothing.
 */
export const PROJECTED_EVENTS_FILTER = 'portfolio_wallet.*.status_changed';

/** Fields of each nested object as the interface defines it; anything else in an event is not shown. */
const RESOURCE_FIELDS: Record<ActivityType, readonly string[]> = {
  deposit: ['id', 'amount', 'token', 'chain', 'fromAddress', 'txHash', 'status', 'createdAt', 'completedAt'],
  withdrawal: [
    'id',
    'amountRequestedUsd',
    'amountPaidUsd',
    'feeUsd',
    'destinationChain',
    'destinationAddress',
    'destinationToken',
    'status',
    'legsCompleted',
    'legsTotal',
    'payoutLegs',
    'failureReason',
    'createdAt',
    'completedAt',
  ],
  rebalance: ['id', 'requestId', 'status', 'allocations', 'createdAt', 'completedAt'],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'partially_completed', 'failed', 'cancelled']);

class MalformedEvent extends Error {}

/**
 * The public activity status of a resource status. Statuses the feed does not name (a withdrawal
 * waiting for approval, say) are still under way, so they show as `processing`.
 */
export function publicStatus(status: string): ActivityStatus {
  return (ACTIVITY_STATUSES as readonly string[]).includes(status) ? (status as ActivityStatus) : 'processing';
}

/** How far along a status is: an item only ever moves to a higher rank (or a newer observation of the same rank). */
export function statusRank(status: ActivityStatus): number {
  if (status === 'created') return 0;
  return FINAL_STATUSES.has(status) ? 2 : 1;
}

/** Reads one domain event into the item it updates; events the feed does not show are ignored. */
export function projectEvent(event: DomainEvent): Projection {
  const type = PROJECTED_EVENTS[event.type];
  if (!type) return { kind: 'ignored' };
  try {
    return { kind: 'item', item: itemOf(event, type) };
  } catch (error) {
    if (error instanceof MalformedEvent) return { kind: 'malformed', reason: error.message };
    throw error;
  }
}

function itemOf(event: DomainEvent, type: ActivityType): ProjectedItem {
  const payload = asObject(event.payload, 'payload');
  const nested = asObject(payload[type], type);
  const status = publicStatus(text(nested, 'status'));
  return {
    orgId: event.orgId,
    id: uuid(nested, 'id'),
    walletId: uuid(payload, 'walletId'),
    type,
    status,
    statusRank: statusRank(status),
    amountMicros: amountOf(type, nested),
    timestamp: date(nested, 'createdAt'),
    resource: Object.fromEntries(RESOURCE_FIELDS[type].map((field) => [field, nested[field] ?? null])),
    // The wallet's observation time orders same-rank updates; the envelope's time stands in when absent.
    observedAt: date(typeof payload['observedAt'] === 'string' ? payload : { observedAt: event.occurredAt }, 'observedAt'),
    eventId: event.id,
  };
}

/** A deposit's amount, a withdrawal's requested amount, or the sum of a rebalance's allocations. */
function amountOf(type: ActivityType, nested: Record<string, unknown>): bigint {
  if (type === 'deposit') return usd(nested['amount'], 'deposit.amount');
  if (type === 'withdrawal') return usd(nested['amountRequestedUsd'], 'withdrawal.amountRequestedUsd');
  const allocations = nested['allocations'];
  if (!Array.isArray(allocations)) throw new MalformedEvent('rebalance.allocations is not an array');
  return allocations.reduce<bigint>(
    (sum, allocation) => sum + usd(asObject(allocation, 'allocation')['amountUsd'], 'allocation.amountUsd'),
    0n,
  );
}

function asObject(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new MalformedEvent(`${name} is not an object`);
  return value as Record<string, unknown>;
}

function text(object: Record<string, unknown>, field: string): string {
  const value = object[field];
  if (typeof value !== 'string' || value === '') throw new MalformedEvent(`${field} is not a string`);
  return value;
}

function uuid(object: Record<string, unknown>, field: string): string {
  const value = text(object, field);
  if (!UUID.test(value)) throw new MalformedEvent(`${field} is not a UUID`);
  return value.toLowerCase();
}

function date(object: Record<string, unknown>, field: string): Date {
  const value = new Date(text(object, field));
  if (Number.isNaN(value.getTime())) throw new MalformedEvent(`${field} is not a timestamp`);
  return value;
}

function usd(value: unknown, field: string): bigint {
  try {
    return parseUsd(value, { field });
  } catch {
    throw new MalformedEvent(`${field} is not a USD amount`);
  }
}

/** A projection row as the feed query returns it. */
export interface FeedRow {
  id: string;
  wallet_id: string;
  type: ActivityType;
  status: ActivityStatus;
  amount_usd: string;
  /** ISO 8601 with milliseconds in UTC, as `Date.prototype.toISOString` writes it. */
  timestamp_iso: string;
  resource: Record<string, unknown>;
}

export function toActivityItem(row: FeedRow): ActivityItemDto {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    amountUsd: formatUsd(BigInt(row.amount_usd)),
    timestamp: row.timestamp_iso,
    walletId: row.wallet_id,
    [row.type]: row.resource,
  } as ActivityItemDto;
}
