import { Inject, Injectable } from '@nestjs/common';
import { ServiceError } from '@service/errors';
import { SERVICE_CONFIG } from '@service/service-runtime';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  type PrivateKeyAccount,
  type TransactionReceipt,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { createNonceManager, jsonRpc, type NonceManager } from 'viem/nonce';
import type { MicroVaultConfig } from '../../config.js';
import { vaultManagerAbi, vaultManagerBytecode } from './generated/vault-manager.artifact.js';

/** One write to a vault contract, as a task submits it. */
export type VaultCall =
  | { functionName: 'setStrategy'; args: readonly [readonly Hex[], readonly number[], number] }
  | { functionName: 'setPaused'; args: readonly [number, boolean] };

export interface SignedTransaction {
  readonly signedTx: Hex;
  readonly hash: Hex;
  readonly nonce: number;
}

/**
 * The service's view of the chain: Sepolia's definition with the configured RPC URL (viem refuses
 * a node answering with another chain id), the operator account with its own nonce manager, and
 * every RPC call bounded by CHAIN_RPC_TIMEOUT_MS without retries, so an unavailable node shows up
 * at once instead of holding a request.
 */
@Injectable()
export class ChainClient {
  private readonly account: PrivateKeyAccount | undefined;
  readonly chainId = sepolia.id;
  private readonly nonceManager: NonceManager = createNonceManager({ source: jsonRpc() });
  private readonly publicClient;
  private readonly walletClient;

  constructor(@Inject(SERVICE_CONFIG) private readonly config: MicroVaultConfig) {
    const transport = http(config.SEPOLIA_RPC_URL, { timeout: config.CHAIN_RPC_TIMEOUT_MS, retryCount: 0 });
    const key = config.MICROVAULT_OPERATOR_KEY;
    this.account = key ? privateKeyToAccount(key, { nonceManager: this.nonceManager }) : undefined;
    this.publicClient = createPublicClient({ chain: sepolia, transport });
    this.walletClient = createWalletClient({ chain: sepolia, transport });
  }

  /** Whether this deployment has an operator key; without one it cannot deploy or change vaults. */
  get canSign(): boolean {
    return this.account !== undefined;
  }

  private get operator(): PrivateKeyAccount {
    if (!this.account) {
      throw new ServiceError('service_temporarily_unavailable', 'Vault changes are unavailable: no operator key is configured.');
    }
    return this.account;
  }

  /** Runs the call against the latest state; throws the revert (with its reason) it would hit. */
  async simulate(vault: Address, call: VaultCall): Promise<void> {
    await this.publicClient.simulateContract({ address: vault, abi: vaultManagerAbi, account: this.operator, ...call } as never);
  }

  /**
   * Prepares (taking the next nonce) and signs the call without sending it. If anything fails
   * after the nonce was taken, the nonce manager forgets its count so the nonce is not skipped.
   */
  async sign(vault: Address, call: VaultCall): Promise<SignedTransaction> {
    const account = this.operator;
    try {
      const request = await this.walletClient.prepareTransactionRequest({
        account,
        to: vault,
        data: encodeFunctionData({ abi: vaultManagerAbi, ...call } as never),
      });
      const signedTx = await account.signTransaction(request as never);
      return { signedTx, hash: keccak256(signedTx), nonce: request.nonce };
    } catch (error) {
      this.resetNonces();
      throw error;
    }
  }

  async broadcast(signedTx: Hex): Promise<void> {
    await this.publicClient.sendRawTransaction({ serializedTransaction: signedTx });
  }

  /** Whether the node has the transaction, pending or mined. */
  async knows(hash: Hex): Promise<boolean> {
    try {
      await this.publicClient.getTransaction({ hash });
      return true;
    } catch (error) {
      if (error instanceof TransactionNotFoundError) return false;
      throw error;
    }
  }

  async receipt(hash: Hex): Promise<TransactionReceipt | null> {
    try {
      return await this.publicClient.getTransactionReceipt({ hash });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    }
  }

  /** Confirmations of a mined transaction: its own block counts as the first. */
  async confirmationsOf(receipt: TransactionReceipt): Promise<number> {
    const head = await this.publicClient.getBlockNumber({ cacheTime: 0 });
    return Number(head - receipt.blockNumber) + 1;
  }

  get requiredConfirmations(): number {
    return this.config.CHAIN_CONFIRMATIONS;
  }

  pauseFlags(vault: Address): Promise<bigint> {
    return this.publicClient.readContract({ address: vault, abi: vaultManagerAbi, functionName: 'pauseFlags' });
  }

  /** Deploys a vault operated by this service's key and waits until it is confirmed. */
  async deployVault(): Promise<{ address: Address; hash: Hex }> {
    const account = this.operator;
    let hash: Hex;
    try {
      hash = await this.walletClient.deployContract({
        account,
        abi: vaultManagerAbi,
        bytecode: vaultManagerBytecode,
        args: [account.address],
      });
    } catch (error) {
      this.resetNonces();
      throw error;
    }
    const receipt = await this.publicClient.waitForTransactionReceipt({
      hash,
      confirmations: this.config.CHAIN_CONFIRMATIONS,
      pollingInterval: Math.min(this.config.MICROVAULT_WORKER_INTERVAL_MS, 1_000),
      timeout: 120_000,
    });
    if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`vault deployment ${hash} reverted`);
    return { address: receipt.contractAddress, hash };
  }

  /** Next nonce comes from the chain again (after a failure, or when this replica takes the signer lease). */
  resetNonces(): void {
    if (this.account) this.nonceManager.reset({ address: this.account.address, chainId: this.chainId });
  }
}
