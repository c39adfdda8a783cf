import { Controller, Delete, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  AddressBookEntryCreatedDto,
  AddressBookEntryDeletedDto,
  AddressBookEntryListDto,
  CreateAddressBookEntryDto,
  NoQueryDto,
  PageQueryDto,
  type RequestContext,
  SUBJECTS,
} from '@service/contracts';
import type { ForwardedJson, NatsRequester } from '@service/nats';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Ctx } from '../http/request-context.js';
import { UuidParam, ValidBody, ValidQuery } from '../http/validation.js';
import { SERVICE_REQUESTER } from '../services.js';

@ApiTags('address-book')
@ApiBearerAuth()
@Controller('v2/address-book/entries')
export class AddressBookController {
  constructor(@Inject(SERVICE_REQUESTER) private readonly services: NatsRequester) {}

  private ask<T>(subject: string, ctx: RequestContext, input: object): Promise<ForwardedJson<T>> {
    return this.services.forward<T>(subject, { ctx, ...input });
  }

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: AddressBookEntryCreatedDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 409] })
  create(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @ValidBody(CreateAddressBookEntryDto) body: CreateAddressBookEntryDto,
  ): Promise<ForwardedJson<AddressBookEntryCreatedDto>> {
    return this.ask(SUBJECTS.wallet.addressBookCreate, ctx, body);
  }

  @Get()
  @ApiOkResponse({ type: AddressBookEntryListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  list(@Ctx() ctx: RequestContext, @ValidQuery(PageQueryDto) query: PageQueryDto): Promise<ForwardedJson<AddressBookEntryListDto>> {
    return this.ask(SUBJECTS.wallet.addressBookList, ctx, query);
  }

  @Delete(':entryId')
  @ApiOkResponse({ type: AddressBookEntryDeletedDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  remove(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto, @UuidParam('entryId') entryId: string): Promise<ForwardedJson<AddressBookEntryDeletedDto>> {
    return this.ask(SUBJECTS.wallet.addressBookDelete, ctx, { entryId });
  }
}
