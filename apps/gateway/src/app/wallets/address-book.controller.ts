import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
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
import type { ForwardedJson } from '@service/nats';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Operation } from '../docs/operation.js';
import { RequiredRoles } from '../docs/required-roles.js';
import { Ctx } from '../http/request-context.js';
import { UuidParam, ValidBody, ValidQuery } from '../http/validation.js';
import { ServiceRoutes } from '../services.js';

@ApiTags('address-book')
@ApiBearerAuth()
@Controller('v2/address-book/entries')
export class AddressBookController extends ServiceRoutes {

  @Post()
  @HttpCode(201)
  @Operation('createAddressBookEntry', { summary: 'Add a payout address (owners and admins; a member gets 403 forbidden)' })
  @RequiredRoles(SUBJECTS.wallet.addressBookCreate)
  @ApiCreatedResponse({ type: AddressBookEntryCreatedDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 409] })
  create(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @ValidBody(CreateAddressBookEntryDto) body: CreateAddressBookEntryDto,
  ): Promise<ForwardedJson<AddressBookEntryCreatedDto>> {
    return this.ask(SUBJECTS.wallet.addressBookCreate, ctx, body);
  }

  @Get()
  @Operation('listAddressBookEntries', { summary: "The organization's payout addresses" })
  @ApiOkResponse({ type: AddressBookEntryListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  list(@Ctx() ctx: RequestContext, @ValidQuery(PageQueryDto) query: PageQueryDto): Promise<ForwardedJson<AddressBookEntryListDto>> {
    return this.ask(SUBJECTS.wallet.addressBookList, ctx, query);
  }

  @Delete(':entryId')
  @Operation('deleteAddressBookEntry', { summary: 'Remove a payout address (owners and admins; a member gets 403 forbidden)' })
  @RequiredRoles(SUBJECTS.wallet.addressBookDelete)
  @ApiOkResponse({ type: AddressBookEntryDeletedDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
  remove(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto, @UuidParam('entryId') entryId: string): Promise<ForwardedJson<AddressBookEntryDeletedDto>> {
    return this.ask(SUBJECTS.wallet.addressBookDelete, ctx, { entryId });
  }
}
