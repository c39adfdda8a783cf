/**
 * The stored rows the domain reads, as plain shapes: the repositories return Prisma's models,
 * which have these fields (and JSON columns as `unknown` here), so domain code never sees Prisma.
 */

export interface WalletRecord {
  readonly id: string;
  readonly orgId: string;
  readonly label: string | null;
  status: string;
  readonly failureReason: string | null;
  readonly autoRebalance: boolean;
  readonly strategy: unknown;
  readonly depositAddresses: unknown;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface DepositRecord {
  readonly id: string;
  readonly walletId: string;
  readonly orgId: string;
  readonly amount: bigint;
  readonly token: string;
  readonly chain: string;
  readonly fromAddress: string | null;
  readonly txHash: string | null;
  readonly status: string;
  readonly settleAt: Date;
  readonly createdAt: Date;
  readonly completedAt: Date | null;
}

export interface RebalanceRecord {
  readonly id: string;
  readonly walletId: string;
  readonly orgId: string;
  readonly requestId: string;
  readonly status: string;
  readonly allocations: unknown;
  readonly reservations: unknown;
  readonly nextRunAt: Date;
  readonly createdAt: Date;
  readonly completedAt: Date | null;
}

export interface WithdrawalRecord {
  readonly id: string;
  readonly walletId: string;
  readonly orgId: string;
  readonly requestId: string;
  readonly status: string;
  readonly amountRequested: bigint;
  readonly fee: bigint;
  readonly amountPaid: bigint | null;
  readonly destinationChain: string;
  readonly destinationAddress: string;
  readonly destinationToken: string;
  readonly payoutLegs: unknown;
  readonly failureReason: string | null;
  readonly nextRunAt: Date;
  readonly createdAt: Date;
  readonly completedAt: Date | null;
}

export interface AddressBookEntryRecord {
  readonly id: string;
  readonly address: string;
  readonly chain: string;
  readonly label: string;
  readonly createdAt: Date;
}

export interface DepositAddressApprovalRecord {
  readonly id: string;
  readonly walletId: string;
  readonly orgId: string;
  readonly chain: string;
  readonly status: string;
  readonly activityId: string | null;
  readonly dueAt: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
