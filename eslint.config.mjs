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
];
