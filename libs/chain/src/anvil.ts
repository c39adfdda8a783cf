import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** Ethereum Sepolia's chain id: the local chain answers with it so the code paths are Sepolia's. */
export const SEPOLIA_CHAIN_ID = 11155111;

/** Anvil's well-known development keys (public knowledge; never fund them on a real chain). */
export const ANVIL_DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
] as const;

export interface LocalChain {
  readonly rpcUrl: string;
  readonly chainId: number;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  try {
    return path.join(path.dirname(require.resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin', 'anvil');
  } catch {
    throw new Error(
      'The anvil binary is missing: @foundry-rs/anvil-linux-amd64 installs only on linux x64 (npm install). ' +
        'Elsewhere, point the chain RPC URL at a node of your own.',
    );
  }
}

/**
 * Starts a local anvil node (Sepolia's chain id by default) on a free loopback port and resolves
 * once it listens. `blockTimeSeconds` mines on an interval instead of on every transaction.
 */
export function startAnvil(options: { chainId?: number; port?: number; blockTimeSeconds?: number } = {}): Promise<LocalChain> {
  const chainId = options.chainId ?? SEPOLIA_CHAIN_ID;
  const args = ['--host', '127.0.0.1', '--port', String(options.port ?? 0), '--chain-id', String(chainId)];
  if (options.blockTimeSeconds) args.push('--block-time', String(options.blockTimeSeconds));
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const output: string[] = [];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`anvil did not start in time:\n${output.join('\n')}`));
    }, 15_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`anvil exited before listening:\n${output.join('\n')}`));
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line);
      const match = /Listening on (\S+:\d+)/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        rpcUrl: `http://${match[1]}`,
        chainId,
        process: child,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    createInterface({ input: child.stderr }).on('line', (line) => output.push(line));
  });
}
