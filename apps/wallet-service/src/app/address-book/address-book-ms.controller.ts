import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type AddressBookEntryDto, type Page, type RpcRequest, SUBJECTS } from '@service/contracts';
import { AddressBookService, type CreateEntryInput } from './address-book.service.js';

@Controller()
export class AddressBookMsController {
  constructor(@Inject(AddressBookService) private readonly addressBook: AddressBookService) {}

  @MessagePattern(SUBJECTS.wallet.addressBookCreate)
  create(@Payload() { ctx, ...input }: RpcRequest<CreateEntryInput>): Promise<{ entry: string }> {
    return this.addressBook.create(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.addressBookList)
  list(@Payload() { ctx, ...input }: RpcRequest<{ cursor?: string; limit?: string }>): Promise<Page<AddressBookEntryDto>> {
    return this.addressBook.list(ctx, input);
  }

  @MessagePattern(SUBJECTS.wallet.addressBookDelete)
  remove(@Payload() { ctx, ...input }: RpcRequest<{ entryId: string }>): Promise<{ id: string; deleted: true }> {
    return this.addressBook.remove(ctx, input);
  }
}
