// Lint rules, including the folder boundaries of docs/architecture.md (see docs/adr/0003-folder-boundaries.md).
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

// The layers, lowest first. A folder may import only from folders before it in this list.
const layers = ['contracts', 'domain', 'commands', 'projections', 'workflows', 'gateway'];
const outerFolders = ['cli', 'deploy', 'web', 'test', 'bench'];

const importOf = (folders) => ({
  regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`,
});

const boundary = (folder, allowed) => {
  const forbidden = [...layers, ...outerFolders].filter((f) => f !== folder && !allowed.includes(f));
  return {
    files: [`${folder}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              ...importOf(forbidden),
              message: `${folder}/ may import only from ${allowed.join(', ') || 'no other folder'} (docs/adr/0003-folder-boundaries.md).`,
            },
          ],
        },
      ],
    },
  };
};

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  {
    ignores: ['node_modules/**', '.data/**', 'web/dist/**', 'bench/results/**', 'coverage/**', '**/*.cjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'max-params': ['error', 3],
    },
  },
  boundary('contracts', []),
  boundary('domain', ['contracts']),
  boundary('commands', ['contracts', 'domain']),
  boundary('projections', ['contracts', 'domain', 'commands']),
  boundary('workflows', ['contracts', 'domain', 'commands', 'projections']),
  boundary('gateway', ['contracts', 'domain', 'commands', 'projections', 'workflows']),
  boundary('web', ['contracts']),
  // The React ecosystem's own rules for the web app: hooks (and the React Compiler's checks) and react-query.
  { files: ['web/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
  ...pluginQuery.configs['flat/recommended'].map((config) => ({ ...config, files: ['web/**/*.{ts,tsx}'] })),
  boundary('deploy', ['contracts']),
  {
    // Temporal workflow code runs in a deterministic sandbox: no Node built-ins, activities as types only.
    files: ['workflows/**/workflows.ts', 'workflows/**/workflows/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'Workflow code runs in the Temporal sandbox: no Node built-ins.',
          })),
          patterns: [
            {
              regex: '(^|/)activities(\\.ts)?$',
              allowTypeImports: true,
              message: 'Import activities as types only, through proxyActivities.',
            },
            {
              ...importOf(['gateway', 'cli', 'deploy', 'web']),
              message: 'Workflows import no outer layers.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      'max-params': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
