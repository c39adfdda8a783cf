import { readdirSync } from 'node:fs';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const nestServerPackages = ['@nestjs/core', '@nestjs/microservices', '@nestjs/platform-*', '@nestjs/testing'];

/** Who may import whom. Apps take libs; libs never take apps; contract libs take no Nest server code. */
const depConstraints = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:runtime'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:runtime', 'type:testing'] },
  {
    sourceTag: 'type:contracts',
    onlyDependOnLibsWithTags: ['type:contracts', 'type:util'],
    bannedExternalImports: nestServerPackages,
  },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'], bannedExternalImports: nestServerPackages },
  { sourceTag: 'type:runtime', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:runtime'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:runtime', 'type:testing'] },
];

/** Tests may also use the testing lib, which production code never imports. */
const testDepConstraints = depConstraints.map((constraint) =>
  constraint.onlyDependOnLibsWithTags.includes('type:testing')
    ? constraint
    : { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'type:testing'] },
);

const boundaries = (constraints) => [
  'error',
  { enforceBuildableLibDependency: false, allow: [], depConstraints: constraints },
];

/**
 * wallet-service's layers inside src/app: domain <- repositories <- features <- workflows. Each
 * layer imports only the layers below it; app.module.ts, the composition root, wires them all.
 * Features are every other folder of src/app (read here, so a new feature is covered) and the
 * files beside them (injection.ts).
 */
const walletApp = 'apps/wallet-service/src/app';
const walletFeatures = readdirSync(new URL(`./${walletApp}`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['domain', 'repositories', 'workflows'].includes(entry.name))
  .map((entry) => `**/${entry.name}/**`);
const walletUpward = (layer, banned) => ({
  group: banned,
  message: `wallet-service layers import downward only (domain <- repositories <- features <- workflows): ${layer} may not import this.`,
});
const walletLayers = [
  {
    files: [`${walletApp}/domain/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            walletUpward('domain', ['**/repositories/**', '**/workflows/**', ...walletFeatures, '**/injection.js', '**/config.js']),
            { group: ['@prisma/*', '@nestjs/*', '**/generated/**'], message: 'wallet-service domain code is pure: no Prisma, no Nest, no I/O.' },
          ],
        },
      ],
    },
  },
  {
    files: [`${walletApp}/repositories/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [walletUpward('repositories', ['**/workflows/**', ...walletFeatures, '**/injection.js', '**/config.js'])] }],
    },
  },
  {
    files: [`${walletApp}/**/*.ts`],
    ignores: [`${walletApp}/domain/**`, `${walletApp}/repositories/**`, `${walletApp}/workflows/**`, `${walletApp}/app.module.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [walletUpward('features', ['**/workflows/**'])] }],
    },
  },
];

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '**/generated/**', '.nx/**', '**/*.cjs', '**/*.mjs'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(depConstraints),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts', '**/solidity/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(testDepConstraints),
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  ...walletLayers,
];
