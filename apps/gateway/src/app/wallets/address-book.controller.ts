import { Controller, Delete, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
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
import type { FastifyReply } from 'fastify';
import { PENDING_CHANGE, sendGoverned } from '../approvals/governed.js';
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
  @Operation('createAddressBookEntry', {
    summary: 'Add a payout address (owners and admins; a member gets 403 forbidden). Audited.',
    description:
      'Added at once (201) while the organization has no approvers; once it has, the entry waits for their quorum as a pending change (202, activity `address_book_change`).',
  })
  @RequiredRoles(SUBJECTS.wallet.addressBookCreate)
  @ApiCreatedResponse({ type: AddressBookEntryCreatedDto, description: 'Added.' })
  @ApiAcceptedResponse(PENDING_CHANGE)
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 409] })
  async create(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @ValidBody(CreateAddressBookEntryDto) body: CreateAddressBookEntryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const input = { address: body.address, chain: body.chain, label: body.label };
    await sendGoverned(reply, 201, this.services.request(SUBJECTS.wallet.addressBookCreate, { ctx, ...input }));
  }

  @Get()
  @Operation('listAddressBookEntries', { summary: "The organization's payout addresses" })
  @ApiOkResponse({ type: AddressBookEntryListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  list(@Ctx() ctx: RequestContext, @ValidQuery(PageQueryDto) query: PageQueryDto): Promise<ForwardedJson<AddressBookEntryListDto>> {
    return this.ask(SUBJECTS.wallet.addressBookList, ctx, query);
  }

  @Delete(':entryId')
  @Operation('deleteAddressBookEntry', {
    summary: 'Remove a payout address (owners and admins; a member gets 403 forbidden). Audited.',
    description:
      'Removed at once (200) while the organization has no approvers; once it has, the removal waits for their quorum as a pending change (202, activity `address_book_change`).',
  })
  @RequiredRoles(SUBJECTS.wallet.addressBookDelete)
  @ApiOkResponse({ type: AddressBookEntryDeletedDto, description: 'Removed.' })
  @ApiAcceptedResponse(PENDING_CHANGE)
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
  async remove(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('entryId') entryId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendGoverned(reply, 200, this.services.request(SUBJECTS.wallet.addressBookDelete, { ctx, entryId }));
  }
}
