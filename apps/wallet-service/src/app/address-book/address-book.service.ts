import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AddressBookEntryDto, Page, RequestContext } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { parseLimit, toPage } from '@service/pagination';
import type { AddressBookEntry } from '../../generated/prisma/client.js';
import { PrismaService } from '../prisma.service.js';
import { addressKey, checkAddress } from '../addresses/payout-address.js';
import { WalletEnvironment } from '../shared/wallet-environment.js';
import { newestFirst } from '../shared/newest-first.js';

export interface CreateEntryInput {
  readonly address: string;
  readonly chain: string;
  readonly label: string;
}

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

  async create(ctx: RequestContext, input: CreateEntryInput): Promise<{ entry: string }> {
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

  async list(ctx: RequestContext, input: { cursor?: string; limit?: string }): Promise<Page<AddressBookEntryDto>> {
    const limit = parseLimit(input.limit);
    const page = newestFirst(LIST, {}, input.cursor);
    const rows = await this.prisma.addressBookEntry.findMany({
      where: {
        orgId: ctx.orgId,
        ...page.after,
      },
      orderBy: page.orderBy,
      take: limit + 1,
    });
    return toPage(rows, limit, page.cursorOf, entryView);
  }

  async remove(ctx: RequestContext, input: { entryId: string }): Promise<{ id: string; deleted: true }> {
    const { count } = await this.prisma.addressBookEntry.deleteMany({ where: { id: input.entryId, orgId: ctx.orgId } });
    if (count === 0) throw new ServiceError('address_book_entry_not_found', `Address book entry ${input.entryId} was not found.`);
    return { id: input.entryId, deleted: true };
  }
}
