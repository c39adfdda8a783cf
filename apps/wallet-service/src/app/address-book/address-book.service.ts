import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type {
  AddressBookEntryCreatedDto,
  AddressBookEntryDeletedDto,
  AddressBookEntryListDto,
  GovernedReply,
  RequestContext,
  RequestOf,
  SUBJECTS,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { NewestFirst } from '@service/pagination';
import { governChange } from '../approvals/approval-changes.js';
import { entryView } from '../domain/address-book-view.js';
import { checkAddress } from '../domain/addresses/payout-address.js';
import { WalletFeature } from '../environment/wallet-feature.js';
import { listEntries } from '../repositories/address-book.repository.js';
import { findEntryById } from '../repositories/approval-changes.repository.js';

const LIST = 'address-book';

/**
 * The organization's payout addresses; a whitelist policy lets withdrawals go only to these. Once
 * the organization has approvers, adding or removing one waits for their quorum
 * (`approvals/approval-changes.ts`); every applied change is audited.
 */
@Injectable()
export class AddressBookService extends WalletFeature {
  async create(
    ctx: RequestContext,
    input: RequestOf<typeof SUBJECTS.wallet.addressBookCreate>,
  ): Promise<GovernedReply<AddressBookEntryCreatedDto>> {
    if (!this.env.allChains.includes(input.chain)) {
      throw new ServiceError(
        'unsupported_chain',
        `Chain ${input.chain} is not one of this environment's chains (${this.env.allChains.join(', ')}).`,
      );
    }
    const address = checkAddress(input.chain, input.address);
    const id = randomUUID();
    const reply = await governChange<AddressBookEntryCreatedDto>(this.sql, this.env, ctx, {
      kind: 'address_book.created',
      build: async () => ({ id, chain: input.chain, address, label: input.label }),
    });
    this.publishAndRun();
    return reply;
  }

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.addressBookList>): Promise<AddressBookEntryListDto> {
    const page = new NewestFirst(LIST, {}, input);
    return page.page(await listEntries(this.prisma, ctx.orgId, page), entryView);
  }

  async remove(
    ctx: RequestContext,
    input: RequestOf<typeof SUBJECTS.wallet.addressBookDelete>,
  ): Promise<GovernedReply<AddressBookEntryDeletedDto>> {
    const reply = await governChange<AddressBookEntryDeletedDto>(this.sql, this.env, ctx, {
      kind: 'address_book.deleted',
      build: async (tx) => {
        const entry = await findEntryById(tx, ctx.orgId, input.entryId);
        if (!entry) throw new ServiceError('address_book_entry_not_found', `Address book entry ${input.entryId} was not found.`);
        return { ...entryView(entry) };
      },
    });
    this.publishAndRun();
    return reply;
  }
}
