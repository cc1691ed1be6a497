import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Store text is untrusted; control characters in regexes are deliberate in the sanitizer.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.mjs', '*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        Buffer: 'readonly',
      },
    },
  },
  // The arrows of docs/ARCHITECTURE.md. The store knows SQL and nothing of the screen;
  // the app is pure TypeScript (no React, Ink or process) that the views render;
  // the views never reach past the app into the store.
  {
    files: ['src/store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'ink'],
          patterns: [
            {
              group: ['../*', '!../budgets.js'],
              message: 'src/store imports nothing outside itself (but src/budgets.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // The same arrow one folder down (src/store/search/ holds the parts of search.ts).
    files: ['src/store/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'ink'],
          patterns: [
            {
              group: ['../../*', '!../../budgets.js'],
              message: 'src/store imports nothing outside itself (but src/budgets.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/app/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'ink'],
          patterns: [
            {
              group: ['**/components/*', '**/cli/*', '**/cli.js', '**/tui/*', '**/demo/*'],
              message:
                'src/app must not import the views, the command line, the terminal shell or the demo (see docs/ARCHITECTURE.md).',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        {
          name: 'process',
          message: 'src/app takes its environment as parameters (src/tui passes it).',
        },
      ],
    },
  },
  {
    files: ['src/agents/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'ink'],
          patterns: [
            {
              group: [
                '**/cli/*',
                '**/mcp/*',
                '**/app/*',
                '**/tui/*',
                '**/recall/*',
                '**/components/*',
              ],
              message:
                "src/agents reads the other agents' files into its index; the doors and the recall core use it, not the reverse.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/recall/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'ink'],
          patterns: [
            {
              group: [
                '**/cli/commands*',
                '**/cli/text*',
                '**/cli/lazy*',
                '**/mcp/*',
                '**/app/*',
                '**/tui/*',
                '**/components/*',
              ],
              message:
                'The recall core answers every door: it imports no door (the store choice and UsageError are its only ties to src/cli).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/mcp/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'ink'],
          patterns: [
            {
              group: [
                '**/cli/commands*',
                '**/cli/text*',
                '**/app/*',
                '**/tui/*',
                '**/components/*',
                '**/agents/recall*',
                '**/store/recall*',
              ],
              message:
                'The MCP server parses tool arguments and prints answers; it asks src/recall, never the command line or a source directly.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/store/*', '**/cli/*', '**/tui/*'],
              message: 'Views render app state: the store is reached through src/app only.',
            },
          ],
        },
      ],
    },
  },
);
