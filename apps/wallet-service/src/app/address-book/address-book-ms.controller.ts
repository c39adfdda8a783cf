import { Controller, Inject } from '@nestjs/common';
import {
  type AddressBookEntryCreatedDto,
  type AddressBookEntryDeletedDto,
  type AddressBookEntryListDto,
  type GovernedReply,
  SUBJECTS,
  type WireRequestOf,
} from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { AddressBookService } from './address-book.service.js';

@Controller()
export class AddressBookMsController {
  constructor(@Inject(AddressBookService) private readonly addressBook: AddressBookService) {}

  @Handles(SUBJECTS.wallet.addressBookCreate)
  create({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.addressBookCreate>): Promise<GovernedReply<AddressBookEntryCreatedDto>> {
    return this.addressBook.create(ctx, input);
  }

  @Handles(SUBJECTS.wallet.addressBookList)
  list({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.addressBookList>): Promise<AddressBookEntryListDto> {
    return this.addressBook.list(ctx, input);
  }

  @Handles(SUBJECTS.wallet.addressBookDelete)
  remove({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.addressBookDelete>): Promise<GovernedReply<AddressBookEntryDeletedDto>> {
    return this.addressBook.remove(ctx, input);
  }
}
