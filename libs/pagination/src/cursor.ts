import { ServiceError } from '@service/errors';

/** The list envelope of every list endpoint. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export type KeysetValue = string | number;

interface CursorBody {
  /** list the cursor belongs to */
  l: string;
  /** fingerprint of the filters it was made under */
  f: string;
  /** keyset position: the sort key of the last row returned */
  p: KeysetValue[];
}

/** Canonical text of the filters a list was read with, so a cursor cannot move between lists. */
export function filterFingerprint(filters: Record<string, unknown>): string {
  const keys = Object.keys(filters)
    .filter((key) => filters[key] !== undefined)
    .sort();
  return JSON.stringify(keys.map((key) => [key, filters[key]]));
}

export function encodeCursor(list: string, filters: Record<string, unknown>, position: KeysetValue[]): string {
  const body: CursorBody = { l: list, f: filterFingerprint(filters), p: position };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/**
 * Reads a cursor made by {@link encodeCursor} for the same list and filters; anything else is
 * `invalid_cursor`. `arity` is the number of keyset columns the list sorts by.
 */
export function decodeCursor(cursor: string, list: string, filters: Record<string, unknown>, arity: number): KeysetValue[] {
  const invalid = () => new ServiceError('invalid_cursor', 'The cursor is malformed or belongs to another list or filter.');
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) throw invalid();
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!isCursorBody(body) || body.l !== list || body.f !== filterFingerprint(filters) || body.p.length !== arity) {
    throw invalid();
  }
  return body.p;
}

function isCursorBody(value: unknown): value is CursorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return (
    typeof body['l'] === 'string' &&
    typeof body['f'] === 'string' &&
    Array.isArray(body['p']) &&
    body['p'].every((item) => typeof item === 'string' || (typeof item === 'number' && Number.isFinite(item)))
  );
}

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 25;
export const ACTIVITY_DEFAULT_LIMIT = 20;

/** `limit` as the query gives it: absent -> the list's default; outside 1..100 -> `validation_error`. */
export function parseLimit(raw: unknown, defaultLimit = DEFAULT_LIMIT): number {
  if (raw === undefined || raw === null || raw === '') return defaultLimit;
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d{1,3}$/.test(text)) {
    throw new ServiceError('validation_error', `limit must be an integer from 1 to ${MAX_LIMIT}.`);
  }
  const limit = Number(text);
  if (limit < 1 || limit > MAX_LIMIT) {
    throw new ServiceError('validation_error', `limit must be an integer from 1 to ${MAX_LIMIT}.`);
  }
  return limit;
}

/**
 * Builds a page from rows read with `limit + 1`: the extra row only proves there is more, and the
 * cursor points at the last row returned.
 */
export function toPage<Row, Item>(rows: Row[], limit: number, cursorOf: (row: Row) => string, toItem: (row: Row) => Item): Page<Item> {
  const visible = rows.slice(0, limit);
  const last = visible.at(-1);
  return {
    data: visible.map(toItem),
    nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null,
  };
}
