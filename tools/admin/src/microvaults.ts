import { connectNats, NatsRequester, ServiceClient } from '@service/nats';
import { ANVIL_DEV_KEYS, type LocalChain, startAnvil } from '@service/chain';
import { type MicroVaultCreatedVault, type ResponseOf, SUBJECTS } from '@service/contracts';

/** Deploying waits for confirmations, so operator requests get far longer than API requests. */
const OPERATOR_TIMEOUT_MS = 180_000;

function operatorContext(orgId: string) {
  return { orgId, principalId: 'operator-cli', role: 'owner' as const, requestId: `admin-${Date.now()}` };
}

type OperatorSubject = typeof SUBJECTS.microvault.organizationsEnable | typeof SUBJECTS.microvault.vaultsCreate;

/** Sends one operator request to the microvault service over NATS and closes the connection. */
async function operatorRequest<S extends OperatorSubject>(natsUrl: string, subject: S, orgId: string): Promise<ResponseOf<S>> {
  const connection = await connectNats({ url: natsUrl, name: 'admin-cli' });
  try {
    return await new ServiceClient(new NatsRequester(connection, OPERATOR_TIMEOUT_MS)).request(subject, { ctx: operatorContext(orgId) });
  } finally {
    await connection.close();
  }
}

export function enableOrganization(natsUrl: string, orgId: string): Promise<{ orgId: string; enabledAt: string }> {
  return operatorRequest(natsUrl, SUBJECTS.microvault.organizationsEnable, orgId);
}

export function createVault(natsUrl: string, orgId: string): Promise<MicroVaultCreatedVault> {
  return operatorRequest(natsUrl, SUBJECTS.microvault.vaultsCreate, orgId);
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
export async function setUpDemoMicroVault(natsUrl: string, orgId: string): Promise<MicroVaultCreatedVault> {
  await enableOrganization(natsUrl, orgId);
  return createVault(natsUrl, orgId);
}
