/**
 * Build step (`nx run microvault-service:compile-solidity`, a dependency of build, test, e2e and
 * `npm run typecheck`): compiles VaultManager.sol with solc-js and writes its ABI (as a const, so
 * viem types every call) and bytecode to src/app/chain/generated/vault-manager.artifact.ts, which
 * git ignores. A unit test fails when the generated file is not what the source compiles to.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileSolidity } from '@service/chain';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ARTIFACT_PATH = path.join(here, '../src/app/chain/generated/vault-manager.artifact.ts');

export function renderArtifact(): string {
  const source = readFileSync(path.join(here, 'VaultManager.sol'), 'utf8');
  const { abi, bytecode } = compileSolidity({ 'VaultManager.sol': source }, 'VaultManager');
  return [
    '// Generated from solidity/VaultManager.sol by solidity/compile.ts (nx run microvault-service:compile-solidity). Do not edit.',
    `export const vaultManagerAbi = ${JSON.stringify(abi, null, 2)} as const;`,
    '',
    `export const vaultManagerBytecode = '${bytecode}' as const;`,
    '',
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  mkdirSync(path.dirname(ARTIFACT_PATH), { recursive: true });
  writeFileSync(ARTIFACT_PATH, renderArtifact());
  console.log(`wrote ${path.relative(process.cwd(), ARTIFACT_PATH)}`);
}
