import { Body, Controller, Get, HttpCode, Inject, NotFoundException, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  AllocateDto,
  AllocatePreviewDto,
  AllocatePreviewResponseDto,
  AllocationResponseDto,
  CreateWalletDto,
  DepositAddressSetupDto,
  DepositDto,
  DepositListDto,
  DepositListQueryDto,
  DepositLookupQueryDto,
  NoQueryDto,
  PageQueryDto,
  type RequestContext,
  SimulateDepositDto,
  StrategyEntryDto,
  StrategyTargetDto,
  SUBJECTS,
  UpdateStrategyDto,
  UpdateWalletDto,
  WalletDto,
  WalletListDto,
  WalletListQueryDto,
  WalletYieldDto,
  WalletYieldSourceListDto,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { ForwardedJson, SubjectClient } from '@service/nats';
import type { GatewayConfig } from '../../config.js';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Operation } from '../docs/operation.js';
import { RequiredRoles } from '../docs/required-roles.js';
import { Ctx } from '../http/request-context.js';
import { UuidParam, ValidBody, ValidQuery } from '../http/validation.js';
import { SERVICES_CLIENT, ServiceRoutes } from '../services.js';
import { GATEWAY_CONFIG } from '../injection.js';

/** PATCH /v2/wallets/{id} takes `label` and nothing else (the changelog of Oct 6, 2026). */
function onlyLabel(body: unknown): void {
  const extra = Object.keys((body ?? {}) as object).filter((key) => key !== 'label');
  if (extra.length > 0) throw new ServiceError('validation_error', `Only label can be changed here; not ${extra.join(', ')}.`);
}

@ApiTags('wallets')
// Referenced by the per-group maps of WalletDto, which name them by $ref.
@ApiExtraModels(StrategyEntryDto, StrategyTargetDto)
@ApiBearerAuth()
@Controller('v2/wallets')
export class WalletsController extends ServiceRoutes {
  constructor(
    @Inject(SERVICES_CLIENT) services: SubjectClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    super(services);
  }

  @Get('yield-sources')
  @Operation('listWalletYieldSources', { summary: "The environment's yield-source catalogue" })
  @ApiOkResponse({ type: WalletYieldSourceListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  yieldSources(
    @Ctx() ctx: RequestContext,
    @ValidQuery(PageQueryDto) query: PageQueryDto,
  ): Promise<ForwardedJson<WalletYieldSourceListDto>> {
    return this.ask(SUBJECTS.wallet.yieldSourcesList, ctx, query);
  }

  @Post()
  @HttpCode(200)
  @Operation('createWallet', { summary: 'Create a wallet (idempotent on requestId); it starts `creating` and becomes `idle`. Every role.' })
  @RequiredRoles(SUBJECTS.wallet.walletsCreate)
  @ApiOkResponse({ type: WalletDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404, 409] })
  create(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @ValidBody(CreateWalletDto) body: CreateWalletDto,
  ): Promise<ForwardedJson<WalletDto>> {
    return this.ask(SUBJECTS.wallet.walletsCreate, ctx, body);
  }

  @Get()
  @Operation('listWallets', { summary: "The organization's wallets, newest first unless order=asc; filters by status and createdAtGte" })
  @ApiOkResponse({ type: WalletListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  list(@Ctx() ctx: RequestContext, @ValidQuery(WalletListQueryDto) query: WalletListQueryDto): Promise<ForwardedJson<WalletListDto>> {
    return this.ask(SUBJECTS.wallet.walletsList, ctx, query);
  }

  @Get(':id')
  @Operation('getWallet', { summary: 'One wallet of the organization' })
  @ApiOkResponse({ type: WalletDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  get(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
  ): Promise<ForwardedJson<WalletDto>> {
    return this.ask(SUBJECTS.wallet.walletsGet, ctx, { walletId });
  }

  @Patch(':id')
  @Operation('updateWallet', { summary: 'Rename a wallet: accepts only `label` (`null` or `""` clears it). Every role.' })
  @RequiredRoles(SUBJECTS.wallet.walletsUpdate)
  @ApiOkResponse({ type: WalletDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  update(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @Body() raw: unknown,
    @ValidBody(UpdateWalletDto) body: UpdateWalletDto,
  ): Promise<ForwardedJson<WalletDto>> {
    onlyLabel(raw);
    return this.ask(SUBJECTS.wallet.walletsUpdate, ctx, { walletId, label: body.label });
  }

  @Patch(':id/strategy')
  @Operation('updateWalletStrategy', {
    summary: 'Replace the targets; an autoRebalance wallet then rebalances to them (legs below 5 USD stay cash). Owners and admins.',
  })
  @RequiredRoles(SUBJECTS.wallet.strategyUpdate)
  @ApiOkResponse({ type: WalletDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404, 409] })
  updateStrategy(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @ValidBody(UpdateStrategyDto) body: UpdateStrategyDto,
  ): Promise<ForwardedJson<WalletDto>> {
    return this.ask(SUBJECTS.wallet.strategyUpdate, ctx, { walletId, ...body });
  }

  @Get(':id/yield')
  @Operation('getWalletYield', { summary: 'Earned yield and what a year at the current rates earns' })
  @ApiOkResponse({ type: WalletYieldDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  yield(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
  ): Promise<ForwardedJson<WalletYieldDto>> {
    return this.ask(SUBJECTS.wallet.yieldGet, ctx, { walletId });
  }

  @Post(':id/deposits/simulate')
  @HttpCode(200)
  @Operation('simulateWalletDeposit', { summary: 'Sandbox only: a deposit that settles after a delay. Every role.' })
  @RequiredRoles(SUBJECTS.wallet.depositsSimulate)
  @ApiOkResponse({ type: DepositDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404, 409] })
  simulateDeposit(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @ValidBody(SimulateDepositDto) body: SimulateDepositDto,
  ): Promise<ForwardedJson<DepositDto>> {
    if (this.config.SERVICE_ENV !== 'sandbox') throw new NotFoundException();
    return this.ask(SUBJECTS.wallet.depositsSimulate, ctx, { walletId, ...body });
  }

  @Get(':id/deposits')
  @Operation('listWalletDeposits', { summary: "The wallet's deposits, newest first unless order=asc; filters by status and createdAtGte" })
  @ApiOkResponse({ type: DepositListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  deposits(
    @Ctx() ctx: RequestContext,
    @ValidQuery(DepositListQueryDto) query: DepositListQueryDto,
    @UuidParam('id') walletId: string,
  ): Promise<ForwardedJson<DepositListDto>> {
    return this.ask(SUBJECTS.wallet.depositsList, ctx, { walletId, ...query });
  }

  @Get(':id/deposits/lookup')
  @Operation('lookupWalletDeposit', {
    summary: 'A deposit of the wallet by its transaction id (on `chain`, when given); 404 deposit_not_found when there is none',
  })
  @ApiOkResponse({ type: DepositDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  lookupDeposit(
    @Ctx() ctx: RequestContext,
    @ValidQuery(DepositLookupQueryDto) query: DepositLookupQueryDto,
    @UuidParam('id') walletId: string,
  ): Promise<ForwardedJson<DepositDto>> {
    return this.ask(SUBJECTS.wallet.depositsLookup, ctx, { walletId, ...query });
  }

  @Get(':id/deposits/:depositId')
  @Operation('getWalletDeposit', { summary: 'One deposit of the wallet' })
  @ApiOkResponse({ type: DepositDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
  deposit(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @UuidParam('depositId') depositId: string,
  ): Promise<ForwardedJson<DepositDto>> {
    return this.ask(SUBJECTS.wallet.depositsGet, ctx, { walletId, depositId });
  }

  @Post(':id/allocate')
  @HttpCode(200)
  @Operation('allocateWallet', {
    summary: 'Move explicit dollar amounts between positions (owners and admins; idempotent on requestId)',
    description:
      'An instruction whose `to` is a yield source that a risk action blocks for this wallet (`prevent_additional_allocation`, executed, its alert ongoing): ' +
      '409 `yield_source_blocked`; moving out of that source stays possible.',
  })
  @RequiredRoles(SUBJECTS.wallet.allocate)
  @ApiOkResponse({ type: AllocationResponseDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404, 409] })
  allocate(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @ValidBody(AllocateDto) body: AllocateDto,
  ): Promise<ForwardedJson<AllocationResponseDto>> {
    return this.ask(SUBJECTS.wallet.allocate, ctx, { walletId, ...body });
  }

  @Post(':id/allocate-preview')
  @HttpCode(200)
  @Operation('previewWalletAllocation', {
    summary: 'The checks of allocate and the positions before and after; changes nothing. Every role.',
    description: 'Refuses what allocate refuses, `yield_source_blocked` (409) included.',
  })
  @RequiredRoles(SUBJECTS.wallet.allocatePreview)
  @ApiOkResponse({ type: AllocatePreviewResponseDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404, 409] })
  preview(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @ValidBody(AllocatePreviewDto) body: AllocatePreviewDto,
  ): Promise<ForwardedJson<AllocatePreviewResponseDto>> {
    return this.ask(SUBJECTS.wallet.allocatePreview, ctx, { walletId, allocations: body.allocations });
  }

  @Post(':id/deposit-addresses/:chain/enable')
  @HttpCode(200)
  @Operation('enableWalletDepositAddress', {
    summary:
      'Start the one-time deposit-address setup of a chain that needs it (Stellar); repeating it returns the current state. Every role.',
    description:
      'The setup is a pending activity (`activityKind: deposit_address_setup`, its id in `approval.turnkeyActivityId`) that the organization’s approvers vote on like a payout; ' +
      '`portfolio_wallet.approval.status_changed` follows it (`pending`, then `approved`, `rejected` or `failed`; enabling again after the last two asks again). ' +
      'Without approvers: 409 `approvers_required`.',
  })
  @RequiredRoles(SUBJECTS.wallet.depositAddressesEnable)
  @ApiOkResponse({ type: DepositAddressSetupDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 404, 409] })
  enableDepositAddress(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') walletId: string,
    @Param('chain') chain: string,
  ): Promise<ForwardedJson<DepositAddressSetupDto>> {
    return this.ask(SUBJECTS.wallet.depositAddressesEnable, ctx, { walletId, chain });
  }
}
