import { createRequire } from 'node:module';
import type { Abi } from 'viem';

export interface CompiledContract {
  readonly abi: Abi;
  readonly bytecode: `0x${string}`;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

/**
 * Compiles Solidity sources with solc-js (offline; no compiler download) and returns one
 * contract's ABI and creation bytecode. Compiler errors fail with solc's own messages.
 */
export function compileSolidity(sources: Record<string, string>, contractName: string): CompiledContract {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([file, content]) => [file, { content }])),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((entry) => entry.severity === 'error');
  if (errors.length > 0) throw new Error(`Solidity compilation failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  for (const contracts of Object.values(output.contracts ?? {})) {
    const contract = contracts[contractName];
    if (contract) return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  }
  throw new Error(`No contract named ${contractName} in the sources`);
}
