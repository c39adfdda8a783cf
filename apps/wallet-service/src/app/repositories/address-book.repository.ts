import type { NewestFirst } from '@service/pagination';
import type { AddressBookEntry } from '../../generated/prisma/client.js';
import type { Tx } from './db.js';

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

/** The organization's entry of an address (compared by its key) on a chain, if any. */
export function findEntry(db: Tx, orgId: string, chain: string, addressKey: string): Promise<AddressBookEntry | null> {
  return db.addressBookEntry.findUnique({ where: { orgId_chain_addressKey: { orgId, chain, addressKey } } });
}
