import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type {
  AddressBookEntryCreatedDto,
  AddressBookEntryDeletedDto,
  AddressBookEntryListDto,
  RequestContext,
  RequestOf,
  SUBJECTS,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { NewestFirst } from '@service/pagination';
import { entryView } from '../domain/address-book-view.js';
import { addressKey, checkAddress } from '../domain/addresses/payout-address.js';
import { WalletFeature } from '../environment/wallet-feature.js';
import { addEntry, deleteEntry, listEntries } from '../repositories/address-book.repository.js';

const LIST = 'address-book';

/** The organization's payout addresses; a whitelist policy lets withdrawals go only to these. */
@Injectable()
export class AddressBookService extends WalletFeature {

  async create(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.addressBookCreate>): Promise<AddressBookEntryCreatedDto> {
    if (!this.env.allChains.includes(input.chain)) {
      throw new ServiceError('unsupported_chain', `Chain ${input.chain} is not one of this environment's chains (${this.env.allChains.join(', ')}).`);
    }
    const address = checkAddress(input.chain, input.address);
    const id = randomUUID();
    const added = await addEntry(this.prisma, { id, orgId: ctx.orgId, chain: input.chain, address, addressKey: addressKey(input.chain, address), label: input.label });
    if (!added) throw new ServiceError('address_book_duplicate_entry', `${address} on ${input.chain} is already in the address book.`);
    return { entry: id };
  }

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.addressBookList>): Promise<AddressBookEntryListDto> {
    const page = new NewestFirst(LIST, {}, input);
    return page.page(await listEntries(this.prisma, ctx.orgId, page), entryView);
  }

  async remove(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.addressBookDelete>): Promise<AddressBookEntryDeletedDto> {
    const deleted = await deleteEntry(this.prisma, ctx.orgId, input.entryId);
    if (!deleted) throw new ServiceError('address_book_entry_not_found', `Address book entry ${input.entryId} was not found.`);
    return { id: input.entryId, deleted: true };
  }
}
