import type { NewestFirst } from '@service/pagination';
import type { AddressBookEntry } from '../../generated/prisma/client.js';
import type { Tx } from './db.js';
import type { WalletTx } from './wallet-sql.js';

export function listEntries(db: Tx, orgId: string, page: NewestFirst): Promise<AddressBookEntry[]> {
  return db.addressBookEntry.findMany(page.findArgs({ orgId }));
}

/** Whether the organization has an entry of an address (compared by its key) on a chain. */
export async function hasEntry(db: WalletTx, orgId: string, chain: string, addressKey: string): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<unknown[]>(
    'SELECT 1 FROM address_book_entries WHERE org_id = $1 AND chain = $2 AND address_key = $3',
    orgId,
    chain,
    addressKey,
  );
  return rows.length > 0;
}
