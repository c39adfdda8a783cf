import { parseUsd } from '@service/money';
import { type ConfigOf, loadConfig, parsers, type ServiceConfig } from '@service/service-runtime';
import { parseRateChanges } from './app/domain/catalogue/catalogue.js';
import { parseWithdrawalPolicies } from './app/domain/withdrawal-policy.js';

function optionalSeed(raw: string): Buffer | null {
  if (raw === '') return null;
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(raw)) throw new Error('must be 32 bytes as 64 hex digits');
  return Buffer.from(raw.replace(/^0x/, ''), 'hex');
}

export const walletConfigSpec = {
  WALLET_ADDRESS_SEED: {
    description: 'secret 32-byte hex seed every deposit address is derived from; required in production',
    default: '',
    parse: optionalSeed,
  },
  WALLET_MAX_PER_ORG: {
    description: 'wallets one organization may hold',
    default: '100',
    parse: parsers.integer(1, 1_000_000),
  },
  WALLET_DEPOSIT_SETTLEMENT_MS: {
    description: 'sandbox: how long a simulated deposit stays processing before it completes',
    default: '5000',
    parse: parsers.integer(0, 86_400_000),
  },
  WALLET_REBALANCE_PROCESSING_MS: {
    description: 'how long an allocation workflow stays processing before its amounts move',
    default: '2000',
    parse: parsers.integer(0, 86_400_000),
  },
  WALLET_PG_POOL_SIZE: {
    description: "connections of the PgPoolSql pool (hot routes, the rebalance steps), beside Prisma's pool of 10",
    default: '10',
    parse: parsers.integer(1, 200),
  },
  WALLET_WORKER_POLL_MS: {
    description: 'how often the workflow worker looks for due wallets, deposits and rebalances',
    default: '500',
    parse: parsers.integer(10, 60_000),
  },
  WALLET_WITHDRAWAL_FEE_USD: {
    description: 'flat fee of one withdrawal, taken from the amount requested (six decimals)',
    default: '0.500000',
    parse: (raw: string) => parseUsd(raw, { field: 'WALLET_WITHDRAWAL_FEE_USD' }),
  },
  WALLET_PAYOUT_STEP_MS: {
    description: 'sandbox: time a payout leg spends in each stage (broadcast, each confirmation)',
    default: '2000',
    parse: parsers.integer(0, 86_400_000),
  },
  WALLET_WITHDRAWAL_POLICIES: {
    description:
      'JSON object of withdrawal policies by organization id ("*" for every other one): ' +
      '{"requireApproval": bool, "requireWhitelist": bool, "limitUsd": "<six decimals>" (production only)}',
    default: '{}',
    parse: parseWithdrawalPolicies,
  },
  WALLET_SANDBOX_FAILING_SOURCES: {
    description: 'sandbox: comma-separated position ids whose payout legs fail (to exercise partial payouts)',
    default: '',
    parse: (raw: string) =>
      raw
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
  },
  WALLET_SANDBOX_FAIL_NEXT_PAYOUT: {
    description:
      'sandbox: comma-separated organization ids whose next payout leg fails retryably (armed at boot; also `npm run admin -- wallets fail-next-payout`)',
    default: '',
    parse: (raw: string) =>
      raw
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
  },
  WALLET_APPROVAL_TTL_MS: {
    description: 'how long a pending customer-approval activity (payout leg, Stellar setup) waits for quorum before it fails',
    default: '86400000',
    parse: parsers.integer(1_000, 30 * 86_400_000),
  },
  WALLET_EVENT_ACK_WAIT_MS: {
    description:
      'how long a risk event (wallet-risk, wallet-market-data) handed to a replica that died, or to a consumer that stopped, stays unacknowledged before it comes again',
    default: '30000',
    parse: parsers.integer(500, 600_000),
  },
  WALLET_YIELD_TIME_SCALE: {
    description: 'sandbox: simulated seconds of yield accrual per real second (1 = real time)',
    default: '1',
    parse: parsers.integer(1, 1_000_000_000),
  },
  WALLET_ACCRUAL_RATE_CHANGES: {
    description:
      'JSON object of yield-source id to its accrual rate changes, oldest first: [{"from": "<ISO 8601>", "apyBps": n}, ...]; ' +
      'before its first change a source accrues at its catalogue rate; accrual and the accounting reports read it piecewise',
    default: '{}',
    parse: parseRateChanges,
  },
  WALLET_CLOCK_CONTROL: {
    description:
      "sandbox only: the operator subject wallet.sandbox.pin-clock may stop this replica's clock at an instant (end-to-end tests); false in any shared environment",
    default: 'false',
    parse: parsers.boolean,
  },
  WALLET_CLOCK_OFFSET_MS: {
    description:
      "sandbox only: milliseconds added to the wall clock for every time the service stamps (money movements, accrual, the accounting reports' now); 0 in production",
    default: '0',
    parse: parsers.integer(-3_153_600_000_000, 3_153_600_000_000),
  },
};

export type WalletConfig = ServiceConfig & ConfigOf<typeof walletConfigSpec>;

/**
 * The wallet configuration of a boot. `main` loads the wallet variables with the common ones; a
 * boot that did not (the in-process skeleton test) gets the wallet defaults.
 */
export function withWalletDefaults(config: ServiceConfig & Partial<ConfigOf<typeof walletConfigSpec>>): WalletConfig {
  return { ...loadConfig(walletConfigSpec, {}), ...config };
}
