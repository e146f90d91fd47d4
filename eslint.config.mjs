import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Who may import whom (ARCHITECTURE.md "Import rules"). A forbidden import fails lint.
const pureBans = [
  '@nestjs/*',
  'viem',
  'viem/*',
  'kafkajs',
  '@eventstore/*',
  '@kurrent/*',
  'better-sqlite3',
  'express',
  'fastify',
  '@fastify/*',
  'pino',
  'node:*',
  'crypto',
  'fs',
  'http',
  'https',
  'net',
];
const depConstraints = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['*'] },
  // Composition roots shared by the apps: they wire features to adapters, and nothing but apps may import them.
  {
    sourceTag: 'type:composition',
    onlyDependOnLibsWithTags: [
      'type:feature',
      'type:domain',
      'type:contract',
      'type:pure',
      'type:adapter',
      'type:coordination',
      'type:platform',
    ],
  },
  {
    sourceTag: 'type:feature',
    onlyDependOnLibsWithTags: [
      'type:domain',
      'type:contract',
      'type:pure',
      'type:adapter',
      'type:coordination',
      'type:platform',
    ],
  },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:contract'], bannedExternalImports: pureBans },
  { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:contract'] },
  { sourceTag: 'type:pure', onlyDependOnLibsWithTags: ['type:contract'] },
  { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:contract', 'type:platform', 'type:pure'] },
  // Background work shared between instances (libs/leases): built on the event-store port, used by features.
  {
    sourceTag: 'type:coordination',
    onlyDependOnLibsWithTags: ['type:contract', 'type:pure', 'type:adapter', 'type:platform'],
  },
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contract'] },
  { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:contract', 'type:pure'] },
  {
    sourceTag: 'type:testing',
    onlyDependOnLibsWithTags: [
      'type:domain',
      'type:contract',
      'type:pure',
      'type:adapter',
      'type:coordination',
      'type:platform',
      'type:client',
      'type:feature',
    ],
  },
];

// Tests may also use the test helpers (libs/testing) and the partner side (libs/partner-client, to verify what the
// service sends); production code may not.
const specDepConstraints = depConstraints.map((c) =>
  c.onlyDependOnLibsWithTags.includes('*')
    ? c
    : { ...c, onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, 'type:testing', 'type:client'] },
);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/tmp/**',
      '**/coverage/**',
      '.nx/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    files: ['**/*.spec.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints: specDepConstraints },
      ],
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  prettier,
);
