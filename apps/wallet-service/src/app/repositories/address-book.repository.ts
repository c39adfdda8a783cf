import type { NewestFirst } from '@service/pagination';
import type { AddressBookEntry } from '../../generated/prisma/client.js';
import type { Tx } from './db.js';
import type { WalletTx } from './wallet-sql.js';

/**
 * Adds an entry unless the organization already has this address on this chain; concurrent
 * duplicates meet on the unique key. Whether it was added.
 */
export async function addEntry(db: Tx, entry: Omit<AddressBookEntry, 'createdAt'>): Promise<boolean> {
  const { count } = await db.addressBookEntry.createMany({ data: [entry], skipDuplicates: true });
  return count > 0;
}

export function listEntries(db: Tx, orgId: string, page: NewestFirst): Promise<AddressBookEntry[]> {
  return db.addressBookEntry.findMany(page.findArgs({ orgId }));
}

/** Whether the organization's entry existed (and is gone now). */
export async function deleteEntry(db: Tx, orgId: string, entryId: string): Promise<boolean> {
  const { count } = await db.addressBookEntry.deleteMany({ where: { id: entryId, orgId } });
  return count > 0;
}

/** Whether the organization has an entry of an address (compared by its key) on a chain. */
export async function hasEntry(db: WalletTx, orgId: string, chain: string, addressKey: string): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<unknown[]>('SELECT 1 FROM address_book_entries WHERE org_id = $1 AND chain = $2 AND address_key = $3', orgId, chain, addressKey);
  return rows.length > 0;
}
