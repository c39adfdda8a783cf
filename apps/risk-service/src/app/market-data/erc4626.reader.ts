import { createPublicClient, erc20Abi, erc4626Abi, http, type PublicClient } from 'viem';
import type { MetricFigures } from '../domain/rules.js';

const SECONDS_PER_YEAR = 365 * 24 * 3600;

/**
 * Reads an ERC-4626 vault on chain: `tvl_usd` is `totalAssets()`, `available_withdrawal_liquidity_usd`
 * the vault's idle balance of its asset (what `withdraw` can pay at once, at most `totalAssets`),
 * both in units of a USD stablecoin; `apy_bps` the annualized change of the share price
 * (`convertToAssets(1 share)`) since the previous reading, null on the first one.
 */
export class Erc4626Reader {
  private readonly client: PublicClient;
  private previous: { readonly price: bigint; readonly at: number } | undefined;
  private meta: { readonly asset: `0x${string}`; readonly assetDecimals: number; readonly oneShare: bigint } | undefined;

  constructor(
    rpcUrl: string,
    private readonly vault: `0x${string}`,
  ) {
    this.client = createPublicClient({ transport: http(rpcUrl, { retryCount: 1, timeout: 10_000 }) });
  }

  async read(at: Date): Promise<MetricFigures> {
    const meta = await this.metadata();
    const [totalAssets, idle, price] = await Promise.all([
      this.client.readContract({ address: this.vault, abi: erc4626Abi, functionName: 'totalAssets' }),
      this.client.readContract({ address: meta.asset, abi: erc20Abi, functionName: 'balanceOf', args: [this.vault] }),
      this.client.readContract({ address: this.vault, abi: erc4626Abi, functionName: 'convertToAssets', args: [meta.oneShare] }),
    ]);
    const usd = (amount: bigint) => Number(amount) / 10 ** meta.assetDecimals;
    const seconds = at.getTime() / 1000;
    const apyBps = this.previous ? annualizedBps(this.previous.price, price, seconds - this.previous.at) : null;
    this.previous = { price, at: seconds };
    return {
      apy_bps: apyBps,
      tvl_usd: usd(totalAssets),
      available_withdrawal_liquidity_usd: usd(idle < totalAssets ? idle : totalAssets),
    };
  }

  private async metadata() {
    if (!this.meta) {
      const [asset, shareDecimals] = await Promise.all([
        this.client.readContract({ address: this.vault, abi: erc4626Abi, functionName: 'asset' }),
        this.client.readContract({ address: this.vault, abi: erc20Abi, functionName: 'decimals' }),
      ]);
      const assetDecimals = await this.client.readContract({ address: asset, abi: erc20Abi, functionName: 'decimals' });
      this.meta = { asset, assetDecimals, oneShare: 10n ** BigInt(shareDecimals) };
    }
    return this.meta;
  }
}

/** The compounded yearly change of a price from `before` to `after` over `seconds`, in bps (2 decimals); null without elapsed time. */
export function annualizedBps(before: bigint, after: bigint, seconds: number): number | null {
  if (seconds <= 0 || before === 0n) return null;
  const ratio = Number(after) / Number(before);
  const yearly = Math.pow(ratio, SECONDS_PER_YEAR / seconds) - 1;
  return Number.isFinite(yearly) ? Math.round(yearly * 1_000_000) / 100 : null;
}
