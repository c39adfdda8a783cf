import { ANVIL_DEV_KEYS, type LocalChain, startAnvil } from '@service/chain';
import { type MicroVaultCreatedVault, SUBJECTS } from '@service/contracts';
import { type OperatorNats, operatorContext, operatorRequest } from './operator.js';

export function enableOrganization(nats: string | OperatorNats, orgId: string): Promise<{ orgId: string; enabledAt: string }> {
  return operatorRequest(nats, SUBJECTS.microvault.organizationsEnable, { ctx: operatorContext(orgId) });
}

export function createVault(nats: string | OperatorNats, orgId: string): Promise<MicroVaultCreatedVault> {
  return operatorRequest(nats, SUBJECTS.microvault.vaultsCreate, { ctx: operatorContext(orgId) });
}

/**
 * The chain microvault-service talks to under `npm start`: Sepolia itself when SEPOLIA_RPC_URL and
 * MICROVAULT_OPERATOR_KEY are both set, otherwise a local anvil answering with Sepolia's chain id
 * and anvil's first dev key as operator. Returns the service's variables and the node to stop.
 */
export async function microvaultChainEnv(env: NodeJS.ProcessEnv): Promise<{ env: Record<string, string>; chain?: LocalChain }> {
  const rpcUrl = env['SEPOLIA_RPC_URL'];
  const operatorKey = env['MICROVAULT_OPERATOR_KEY'];
  if (rpcUrl && operatorKey) {
    return { env: { SEPOLIA_RPC_URL: rpcUrl, MICROVAULT_OPERATOR_KEY: operatorKey } };
  }
  const chain = await startAnvil();
  return {
    env: { SEPOLIA_RPC_URL: chain.rpcUrl, MICROVAULT_OPERATOR_KEY: ANVIL_DEV_KEYS[0], CHAIN_CONFIRMATIONS: '1' },
    chain,
  };
}

/** `npm start`'s demo: the demo organization enabled with one fresh vault; returns the vault. */
export async function setUpDemoMicroVault(nats: string | OperatorNats, orgId: string): Promise<MicroVaultCreatedVault> {
  await enableOrganization(nats, orgId);
  return createVault(nats, orgId);
}
