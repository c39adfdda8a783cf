import type { KeysetOrder } from '@service/pagination';

/** What a list of wallets, deposits or withdrawals is filtered by beside its owner. */
export interface ListWhere {
  readonly status?: { readonly in: string[] };
  readonly createdAt?: { readonly gte: Date };
}

/**
 * The documented list filters (`status` repeatable, `createdAtGte`, `order`; `sort` is only
 * `createdAt`) as a query `where`, the order, and the canonical form the cursor is bound to, so
 * a cursor made under other filters is `invalid_cursor` and equal filters share cursors.
 */
export function listFiltersOf(
  input: { readonly status?: readonly string[]; readonly createdAtGte?: string; readonly order?: KeysetOrder },
  owner: Record<string, unknown> = {},
): { where: ListWhere; order: KeysetOrder; bound: Record<string, unknown> } {
  const statuses = input.status ? [...new Set(input.status)].sort() : undefined;
  const since = input.createdAtGte === undefined ? undefined : new Date(input.createdAtGte);
  return {
    where: { ...(statuses ? { status: { in: statuses } } : {}), ...(since ? { createdAt: { gte: since } } : {}) },
    order: input.order ?? 'desc',
    bound: { ...owner, status: statuses, createdAtGte: since?.toISOString() },
  };
}
