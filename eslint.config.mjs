import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const nestServerPackages = ['@nestjs/core', '@nestjs/microservices', '@nestjs/platform-*', '@nestjs/testing'];

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '**/generated/**', '.nx/**', '**/*.cjs', '**/*.mjs'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:runtime'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:runtime', 'type:testing'] },
            {
              sourceTag: 'type:contracts',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:util'],
              bannedExternalImports: nestServerPackages,
            },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'], bannedExternalImports: nestServerPackages },
            { sourceTag: 'type:runtime', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:runtime'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:runtime'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
