import type {
  ApprovalAuditListDto,
  ApprovalPolicyDto,
  ApprovalRequestDto,
  ApprovalRequestResponseDto,
  ApproverDeletedDto,
  ApproverDto,
  ApproverListDto,
  CreateApproverRequest,
  GovernedReply,
  PendingActivitiesDto,
  PutApprovalPolicyDto,
  VoteDto,
  VoteResponseDto,
} from './dto/approval.dto.js';
import type { ActivityPageDto, ActivityQueryDto } from './dto/activity.dto.js';
import type {
  ApiKeyDto,
  ApiKeyPageDto,
  ApiKeyPrincipal,
  CreateApiKeyDto,
  CreatedApiKeyDto,
  RevokedApiKeyDto,
  RollApiKeyDto,
} from './dto/api-key.dto.js';
import type { GVaultAllowlistDto, GVaultAllowlistParamsDto, GVaultYieldSourceListDto } from './dto/gvault.dto.js';
import type {
  MicroVaultCreatedVault,
  MicroVaultPauseInput,
  MicroVaultPauseStatusDto,
  MicroVaultStrategyInput,
  MicroVaultSubmitReply,
  MicroVaultTaskDto,
  MicroVaultTaskPageDto,
} from './dto/microvault.dto.js';
import type { PageQueryDto } from './dto/page.dto.js';
import type {
  AllocateDto,
  AllocatePreviewDto,
  AllocatePreviewResponseDto,
  AllocationResponseDto,
  CreateWalletDto,
  DepositDto,
  DepositListDto,
  DepositListQueryDto,
  DepositLookupQueryDto,
  SimulateDepositDto,
  UpdateStrategyDto,
  UpdateWalletDto,
  WalletDto,
  WalletListDto,
  WalletListQueryDto,
  WalletYieldDto,
  WalletYieldSourceListDto,
} from './dto/wallet.dto.js';
import type {
  AccountingActivityPageDto,
  AccountingActivityQueryDto,
  PeriodSummaryDto,
  PeriodSummaryQueryDto,
  WalletActivityPageDto,
  WalletActivityQueryDto,
} from './dto/accounting.dto.js';
import type {
  CreatedWebhookRegistrationDto,
  CreateWebhookDto,
  UpdateWebhookDto,
  DeletedWebhookDto,
  RotateWebhookSecretDto,
  RotatedWebhookSecretDto,
  WebhookDeliveryEventDto,
  WebhookDeliveryEventPageDto,
  WebhookFamilyInput,
  WebhookRegistrationDto,
  WebhookRegistrationPageDto,
} from './dto/webhook.dto.js';
import type {
  AddressBookEntryCreatedDto,
  AddressBookEntryDeletedDto,
  AddressBookEntryListDto,
  CancelWithdrawalDto,
  CreateAddressBookEntryDto,
  CreateWithdrawalDto,
  DepositAddressSetupDto,
  WithdrawalDto,
  PayoutLegDto,
  PayoutRequestDto,
  WithdrawalListDto,
  WithdrawalListQueryDto,
  WithdrawalPreviewDto,
  WithdrawalPreviewResponseDto,
} from './dto/withdrawal.dto.js';
import type {
  CreateRiskRuleDto,
  DeletedRiskRuleDto,
  InjectRiskMetricsDto,
  RiskActionDto,
  RiskActionListDto,
  RiskActionListQueryDto,
  RiskAlertListDto,
  RiskAlertListQueryDto,
  RiskMetricsListDto,
  RiskMetricsObservationDto,
  RiskMetricsQueryDto,
  RiskRuleDto,
  RiskRuleListDto,
  RiskRuleListQueryDto,
  UpdateRiskActionDto,
  UpdateRiskRuleDto,
} from './dto/risk.dto.js';
import type { HealthReply, RequestContext } from './rpc.js';
import { SUBJECTS, type ServiceName } from './subjects.js';

/**
 * The typed contract between the gateway and the services: for every NATS subject, what the
 * sender puts beside `ctx` and what the service answers. The gateway's requester and the
 * services' `@Handles` decorator both take their types from here, so a request or response that
 * changes on one side only is a compile error. Requests are the gateway's validated DTOs: a
 * service trusts their shape and checks only what needs its data.
 */
export interface Rpc<Request extends object, Response> {
  readonly request: Request;
  readonly response: Response;
}

/** Nothing beside `ctx`. */
export type NoInput = Record<never, never>;

export interface WalletRef {
  readonly walletId: string;
}
export interface WithdrawalRef extends WalletRef {
  readonly withdrawalId: string;
}
export interface PayoutRef extends WithdrawalRef {
  readonly payoutId: string;
}

export interface WalletContract {
  'wallet.health.check': Rpc<NoInput, HealthReply>;
  'wallet.yield-sources.list': Rpc<PageQueryDto, WalletYieldSourceListDto>;
  'wallet.wallets.create': Rpc<CreateWalletDto, WalletDto>;
  'wallet.wallets.list': Rpc<WalletListQueryDto, WalletListDto>;
  'wallet.wallets.get': Rpc<WalletRef, WalletDto>;
  'wallet.wallets.update': Rpc<WalletRef & UpdateWalletDto, WalletDto>;
  'wallet.strategy.update': Rpc<WalletRef & UpdateStrategyDto, WalletDto>;
  'wallet.yield.get': Rpc<WalletRef, WalletYieldDto>;
  'wallet.deposits.simulate': Rpc<WalletRef & SimulateDepositDto, DepositDto>;
  'wallet.deposits.list': Rpc<WalletRef & DepositListQueryDto, DepositListDto>;
  'wallet.deposits.get': Rpc<WalletRef & { readonly depositId: string }, DepositDto>;
  'wallet.deposits.lookup': Rpc<WalletRef & DepositLookupQueryDto, DepositDto>;
  'wallet.rebalances.allocate': Rpc<WalletRef & AllocateDto, AllocationResponseDto>;
  'wallet.rebalances.preview': Rpc<WalletRef & Pick<AllocatePreviewDto, 'allocations'>, AllocatePreviewResponseDto>;
  'wallet.withdrawals.preview': Rpc<WalletRef & WithdrawalPreviewDto, WithdrawalPreviewResponseDto>;
  'wallet.withdrawals.create': Rpc<WalletRef & CreateWithdrawalDto, WithdrawalDto>;
  'wallet.withdrawals.list': Rpc<WalletRef & WithdrawalListQueryDto, WithdrawalListDto>;
  'wallet.withdrawals.get': Rpc<WithdrawalRef, WithdrawalDto>;
  'wallet.withdrawals.cancel': Rpc<WithdrawalRef & CancelWithdrawalDto, WithdrawalDto>;
  'wallet.payouts.retry': Rpc<PayoutRef & PayoutRequestDto, PayoutLegDto>;
  'wallet.payouts.cancel': Rpc<PayoutRef & PayoutRequestDto, PayoutLegDto>;
  'wallet.address-book.create': Rpc<CreateAddressBookEntryDto, GovernedReply<AddressBookEntryCreatedDto>>;
  'wallet.address-book.list': Rpc<PageQueryDto, AddressBookEntryListDto>;
  'wallet.address-book.delete': Rpc<{ readonly entryId: string }, GovernedReply<AddressBookEntryDeletedDto>>;
  'wallet.deposit-addresses.enable': Rpc<WalletRef & { readonly chain: string }, DepositAddressSetupDto>;
  'wallet.approvers.create': Rpc<CreateApproverRequest, GovernedReply<ApproverDto>>;
  'wallet.approvers.list': Rpc<PageQueryDto, ApproverListDto>;
  'wallet.approvers.delete': Rpc<{ readonly approverId: string }, GovernedReply<ApproverDeletedDto>>;
  'wallet.approval-policy.get': Rpc<NoInput, ApprovalPolicyDto>;
  'wallet.approval-policy.put': Rpc<PutApprovalPolicyDto, GovernedReply<ApprovalPolicyDto>>;
  'wallet.approval-audit.list': Rpc<PageQueryDto, ApprovalAuditListDto>;
  'wallet.turnkey.pending': Rpc<NoInput, PendingActivitiesDto>;
  'wallet.turnkey.approval-request': Rpc<ApprovalRequestDto, ApprovalRequestResponseDto>;
  'wallet.turnkey.vote': Rpc<VoteDto & { readonly activityId: string }, VoteResponseDto>;
  'wallet.accounting.period-summary': Rpc<PeriodSummaryQueryDto, PeriodSummaryDto>;
  'wallet.accounting.activity': Rpc<AccountingActivityQueryDto, AccountingActivityPageDto>;
  'wallet.activity.list': Rpc<WalletRef & WalletActivityQueryDto, WalletActivityPageDto>;
  'wallet.sandbox.fail-next-payout': Rpc<NoInput, { orgId: string; armedAt: string }>;
  'wallet.sandbox.pin-clock': Rpc<{ readonly at: string | null }, { pinnedAt: string | null }>;
}

export interface GVaultContract {
  'gvault.health.check': Rpc<NoInput, HealthReply>;
  'gvault.yield-sources.list': Rpc<NoInput, GVaultYieldSourceListDto>;
  'gvault.allowlist.check': Rpc<GVaultAllowlistParamsDto, GVaultAllowlistDto>;
}

export interface MicroVaultContract {
  'microvault.health.check': Rpc<NoInput, HealthReply>;
  'microvault.strategy.update': Rpc<MicroVaultStrategyInput, MicroVaultSubmitReply>;
  'microvault.pause.set': Rpc<MicroVaultPauseInput, MicroVaultSubmitReply>;
  'microvault.pause-status.get': Rpc<{ readonly vaultId: string }, MicroVaultPauseStatusDto>;
  'microvault.tasks.get': Rpc<{ readonly taskId: string }, MicroVaultTaskDto>;
  'microvault.tasks.list': Rpc<{ readonly vaultId: string } & PageQueryDto, MicroVaultTaskPageDto>;
  'microvault.organizations.enable': Rpc<NoInput, { orgId: string; enabledAt: string }>;
  'microvault.vaults.create': Rpc<NoInput, MicroVaultCreatedVault>;
}

export interface WebhookContract {
  'webhook.health.check': Rpc<NoInput, HealthReply>;
  'webhook.registrations.create': Rpc<WebhookFamilyInput & CreateWebhookDto, CreatedWebhookRegistrationDto>;
  'webhook.registrations.list': Rpc<WebhookFamilyInput & PageQueryDto, WebhookRegistrationPageDto>;
  'webhook.registrations.get': Rpc<WebhookFamilyInput & { readonly id: string }, WebhookRegistrationDto>;
  'webhook.registrations.update': Rpc<WebhookFamilyInput & UpdateWebhookDto & { readonly id: string }, WebhookRegistrationDto>;
  'webhook.registrations.delete': Rpc<WebhookFamilyInput & { readonly id: string }, DeletedWebhookDto>;
  'webhook.registrations.test': Rpc<WebhookFamilyInput & { readonly id: string }, WebhookDeliveryEventDto>;
  'webhook.registrations.rotate-secret': Rpc<
    WebhookFamilyInput & RotateWebhookSecretDto & { readonly id: string },
    RotatedWebhookSecretDto
  >;
  'webhook.deliveries.list': Rpc<WebhookFamilyInput & PageQueryDto & { readonly id?: string }, WebhookDeliveryEventPageDto>;
  'webhook.deliveries.retry': Rpc<WebhookFamilyInput & { readonly id: string; readonly eventId: string }, WebhookDeliveryEventDto>;
}

export interface ActivityContract {
  'activity.health.check': Rpc<NoInput, HealthReply>;
  'activity.feed.list': Rpc<ActivityQueryDto, ActivityPageDto>;
}

export interface ApiKeyRef {
  readonly keyId: string;
}

export interface IdentityContract {
  'identity.health.check': Rpc<NoInput, HealthReply>;
  'identity.api-keys.create': Rpc<CreateApiKeyDto, CreatedApiKeyDto>;
  'identity.api-keys.list': Rpc<PageQueryDto, ApiKeyPageDto>;
  'identity.api-keys.get': Rpc<ApiKeyRef, ApiKeyDto>;
  'identity.api-keys.revoke': Rpc<ApiKeyRef, RevokedApiKeyDto>;
  'identity.api-keys.roll': Rpc<ApiKeyRef & RollApiKeyDto, CreatedApiKeyDto>;
  /**
   * `ctx` is the gateway's own (no principal yet). The presented key itself never leaves the
   * gateway: `keyHash` is what identity-service stores for it, HMAC-SHA-256 of the whole key under
   * the shared pepper (IDENTITY_KEY_PEPPER), base64url without padding ({@link API_KEY_HASH_FORMAT}).
   */
  'identity.api-keys.authenticate': Rpc<{ readonly keyHash: string }, ApiKeyPrincipal>;
}

export interface RiskRuleRef {
  readonly riskRuleId: string;
}
export interface RiskActionRef {
  readonly riskActionId: string;
}

/**
 * The risk engine. `portfolioWalletId` is stored as the gateway passes it: risk-service holds no
 * wallet data (the gateway or wallet-service checks that the wallet is the organization's).
 */
export interface RiskContract {
  'risk.health.check': Rpc<NoInput, HealthReply>;
  'risk.rules.create': Rpc<CreateRiskRuleDto, RiskRuleDto>;
  'risk.rules.list': Rpc<RiskRuleListQueryDto, RiskRuleListDto>;
  'risk.rules.update': Rpc<RiskRuleRef & UpdateRiskRuleDto, RiskRuleDto>;
  'risk.rules.delete': Rpc<RiskRuleRef, DeletedRiskRuleDto>;
  'risk.alerts.list': Rpc<RiskAlertListQueryDto, RiskAlertListDto>;
  'risk.actions.list': Rpc<RiskActionListQueryDto, RiskActionListDto>;
  'risk.actions.update': Rpc<RiskActionRef & UpdateRiskActionDto, RiskActionDto>;
  'risk.metrics.list': Rpc<RiskMetricsQueryDto, RiskMetricsListDto>;
  'risk.sandbox-metrics.inject': Rpc<InjectRiskMetricsDto, RiskMetricsObservationDto>;
}

/** Every subject of every service. */
export interface Contract
  extends WalletContract, GVaultContract, MicroVaultContract, WebhookContract, ActivityContract, IdentityContract, RiskContract {}

export type Subject = keyof Contract;
export type RequestOf<S extends Subject> = Contract[S]['request'];
export type ResponseOf<S extends Subject> = Contract[S]['response'];

/** What travels over NATS for a subject: the caller's context beside the request. */
export type WireRequestOf<S extends Subject> = { readonly ctx: RequestContext } & RequestOf<S>;

/** A handler of a subject as a service declares it. */
export type HandlerOf<S extends Subject> = (request: WireRequestOf<S>) => ResponseOf<S> | Promise<ResponseOf<S>>;

/**
 * `unknown` when A and B are the same type, `never` otherwise. Stricter than mutual
 * assignability, which lets an optional field be dropped or added on one side.
 */
export type Identical<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? unknown : never;

/** `unknown` when a handler method takes exactly the subject's wire request (or nothing at all). */
export type TakesRequestOf<S extends Subject, M extends (...args: never[]) => unknown> =
  Parameters<M> extends [] ? unknown : Identical<Parameters<M>[0], WireRequestOf<S>>;

/** The subjects in {@link SUBJECTS} and in {@link Contract} are the same set: one place lists them. */
type SubjectConstant = { [N in ServiceName]: (typeof SUBJECTS)[N][keyof (typeof SUBJECTS)[N]] }[ServiceName];
const everySubjectListed: Identical<SubjectConstant, Subject> = undefined as unknown;
void everySubjectListed;

/** The service a subject belongs to: its first token. */
export function serviceOf(subject: Subject): ServiceName {
  return subject.slice(0, subject.indexOf('.')) as ServiceName;
}

/** Every subject, from {@link SUBJECTS}. */
export const ALL_SUBJECTS: readonly Subject[] = Object.values(SUBJECTS).flatMap((subjects) => Object.values(subjects) as Subject[]);
