import type { AddressBookEntryDto } from '@service/contracts';
import type { AddressBookEntryRecord } from './records.js';

export function entryView(row: AddressBookEntryRecord): AddressBookEntryDto {
  return { id: row.id, address: row.address, chain: row.chain, label: row.label, createdAt: row.createdAt.toISOString() };
}
