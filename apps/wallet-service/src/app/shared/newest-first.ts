import { decodeCursor, encodeCursor } from '@service/pagination';

/**
 * Keyset paging of a list newest first by (createdAt, id), as every wallet-service list reads:
 * the filter for rows after the cursor, the order, and the cursor of a row.
 */
export function newestFirst(list: string, filters: Record<string, unknown>, cursor: string | undefined) {
  const after = cursor ? decodeCursor(cursor, list, filters, 2) : undefined;
  const at = after ? new Date(String(after[0])) : undefined;
  return {
    after: after && at ? { OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: String(after[1]) } }] } : {},
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    cursorOf: (row: { createdAt: Date; id: string }) => encodeCursor(list, filters, [row.createdAt.toISOString(), row.id]),
  };
}
