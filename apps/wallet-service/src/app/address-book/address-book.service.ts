import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type {
  AddressBookEntryCreatedDto,
  AddressBookEntryDeletedDto,
  AddressBookEntryDto,
  AddressBookEntryListDto,
  RequestContext,
  RequestOf,
  SUBJECTS,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { NewestFirst } from '@service/pagination';
import type { AddressBookEntry } from '../../generated/prisma/client.js';
import { PrismaService } from '../prisma.service.js';
import { addressKey, checkAddress } from '../addresses/payout-address.js';
import { WalletEnvironment } from '../shared/wallet-environment.js';

const LIST = 'address-book';

function entryView(row: AddressBookEntry): AddressBookEntryDto {
  return { id: row.id, address: row.address, chain: row.chain, label: row.label, createdAt: row.createdAt.toISOString() };
}

/** The organization's payout addresses; a whitelist policy lets withdrawals go only to these. */
@Injectable()
export class AddressBookService {
  constructor(
    @Inject(PrismaService) private readonly prisma: PrismaService,
    @Inject(WalletEnvironment) private readonly env: WalletEnvironment,
  ) {}

  async create(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.addressBookCreate>): Promise<AddressBookEntryCreatedDto> {
    if (!this.env.allChains.includes(input.chain)) {
      throw new ServiceError('unsupported_chain', `Chain ${input.chain} is not one of this environment's chains (${this.env.allChains.join(', ')}).`);
    }
    const address = checkAddress(input.chain, input.address);
    const id = randomUUID();
    // Concurrent duplicates meet on the unique key: one row, the others see the duplicate.
    const { count } = await this.prisma.addressBookEntry.createMany({
      data: [{ id, orgId: ctx.orgId, chain: input.chain, address, addressKey: addressKey(input.chain, address), label: input.label }],
      skipDuplicates: true,
    });
    if (count === 0) throw new ServiceError('address_book_duplicate_entry', `${address} on ${input.chain} is already in the address book.`);
    return { entry: id };
  }

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.addressBookList>): Promise<AddressBookEntryListDto> {
    const page = new NewestFirst(LIST, {}, input);
    const rows = await this.prisma.addressBookEntry.findMany({
      where: {
        orgId: ctx.orgId,
        ...page.where,
      },
      orderBy: page.orderBy,
      take: page.take,
    });
    return page.page(rows, entryView);
  }

  async remove(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.addressBookDelete>): Promise<AddressBookEntryDeletedDto> {
    const { count } = await this.prisma.addressBookEntry.deleteMany({ where: { id: input.entryId, orgId: ctx.orgId } });
    if (count === 0) throw new ServiceError('address_book_entry_not_found', `Address book entry ${input.entryId} was not found.`);
    return { id: input.entryId, deleted: true };
  }
}
