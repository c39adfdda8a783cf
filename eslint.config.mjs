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
  // End-to-end suites (apps/<app>/test) drive the built apps from outside, as a client would.
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:runtime', 'type:testing', 'type:sdk'] },
  // The published SDK (packages/sdk) stands alone: it imports no lib, app or server code.
  { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: ['type:sdk'], bannedExternalImports: ['@nestjs/*'] },
];

/** Tests may also use the testing lib, which production code never imports, and call the system through the SDK. */
const testDepConstraints = depConstraints.map((constraint) => ({
  ...constraint,
  onlyDependOnLibsWithTags: [...new Set([...constraint.onlyDependOnLibsWithTags, 'type:testing', 'type:sdk'])],
}));

const boundaries = (constraints) => ['error', { enforceBuildableLibDependency: false, allow: [], depConstraints: constraints }];

/**
 * The layers inside a service's src/app: domain <- repositories <- features <- the background
 * layer on top (wallet-service's `workflows/`, the other services' `workers/`). Each layer imports
 * only the layers below it; app.module.ts, the composition root, wires them all. Features are
 * every other folder of src/app (read here, so a new feature is covered) and the files beside
 * them (injection.ts).
 */
function serviceLayers(service, top) {
  const app = `apps/${service}/src/app`;
  const features = readdirSync(new URL(`./${app}`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !['domain', 'repositories', top].includes(entry.name))
    .map((entry) => `**/${entry.name}/**`);
  const upward = (layer, banned) => ({
    group: banned,
    message: `${service} layers import downward only (domain <- repositories <- features <- ${top}): ${layer} may not import this.`,
  });
  const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
  return [
    {
      files: [`${app}/domain/**/*.ts`],
      rules: restrict([
        upward('domain', ['**/repositories/**', `**/${top}/**`, ...features, '**/injection.js', '**/config.js']),
        { group: ['@prisma/*', '@nestjs/*', '**/generated/**'], message: `${service} domain code is pure: no Prisma, no Nest, no I/O.` },
      ]),
    },
    {
      files: [`${app}/repositories/**/*.ts`],
      rules: restrict([upward('repositories', [`**/${top}/**`, ...features, '**/injection.js'])]),
    },
    {
      files: [`${app}/**/*.ts`],
      ignores: [`${app}/domain/**`, `${app}/repositories/**`, `${app}/${top}/**`, `${app}/app.module.ts`, `${app}/*.providers.ts`],
      rules: restrict([upward('features', [`**/${top}/**`])]),
    },
  ];
}

const layeredServices = [
  ['wallet-service', 'workflows'],
  ['webhook-service', 'workers'],
  ['activity-service', 'workers'],
  ['gvault-service', 'workers'],
  ['microvault-service', 'workers'],
  ['identity-service', 'workers'],
  ['risk-service', 'workers'],
]
  .flatMap(([service, top]) => serviceLayers(service, top))
  .map((block) => ({ ...block, ignores: [...(block.ignores ?? []), '**/*.spec.ts'] }));

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
    // Type-aware rules: one TypeScript program over tsconfig.json (every project's sources, specs
    // and tools), so a promise nobody awaits or handles, or one passed where a callback's result is
    // ignored, is an error rather than an unhandled rejection found in production, and a switch
    // over a union misses no member.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts', '**/solidity/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(testDepConstraints),
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  ...layeredServices,
];
