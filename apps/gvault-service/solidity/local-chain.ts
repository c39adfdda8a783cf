import { startLocalAllowlistChain, TEST_ALLOWLIST_OWNER_KEY } from './test-allowlist.js';

/**
 * `tsx apps/gvault-service/solidity/local-chain.ts`: the local chain of `npm start`. Starts anvil
 * on 127.0.0.1:8545 mining a block a second (so changes gain confirmations without traffic),
 * deploys the test allowlist and prints one JSON line with gvault-service's variables; runs until
 * SIGTERM or SIGINT.
 */
const port = Number(process.env['LOCAL_CHAIN_PORT'] ?? '8545');
const local = await startLocalAllowlistChain({ port, blockTimeSeconds: 1 });
process.stdout.write(`${JSON.stringify({ ...local.env, ALLOWLIST_OWNER_KEY: TEST_ALLOWLIST_OWNER_KEY })}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void local.stop().then(() => process.exit(0)));
}
