import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** The folders of src/ whose arrows are locked below (src/store and src/app have their own blocks). */
const FOLDERS = [
  'store',
  'text',
  'query',
  'anchors',
  'clipboard',
  'export',
  'demo',
  'ids',
  'agents',
  'mirror',
  'postgres',
  'hosts',
  'recall',
  'mcp',
  'cli',
  'tui',
  'app',
];

/**
 * One folder's arrows: it may import the folders in `may` (and src/budgets.ts,
 * src/paths.ts, itself); every other folder, the views, React and Ink are refused
 * with `why`. `more` adds finer patterns (a few files of a folder it may use).
 */
function arrows(folder, may, why, more = []) {
  const refused = FOLDERS.filter((f) => f !== folder && !may.includes(f)).map((f) => `**/${f}/*`);
  return {
    files: [`src/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'ink'],
          patterns: [{ group: [...refused, '**/components/*'], message: why }, ...more],
        },
      ],
    },
  };
}

/** The command line's helpers a non-CLI folder may use: flags' type and inert JSON. */
const CLI_HELPERS_ONLY = {
  group: ['**/cli/*', '!**/cli/flags*', '!**/cli/json*'],
  message: 'Of src/cli only flags.ts and json.ts: a door never imports another door.',
};

// Every folder of src/ but src/tui (the composition root, which may import all)
// and src/store / src/app (their own blocks below). docs/ARCHITECTURE.md has the table.
const FOLDER_ARROWS = [
  arrows(
    'text',
    [],
    'src/text is a leaf: sanitize, width, markdown; it knows no source and no door.',
  ),
  arrows('query', ['text'], "src/query splits the search line's chips; it knows only src/text."),
  arrows(
    'anchors',
    ['text', 'agents'],
    'src/anchors formats and parses anchors: text, and the agent names.',
  ),
  arrows('clipboard', ['text'], 'src/clipboard writes to the clipboard: it knows only src/text.'),
  arrows(
    'export',
    ['store', 'text', 'anchors'],
    'src/export shapes a conversation from store shapes.',
  ),
  arrows('demo', [], 'src/demo generates a store; it imports nothing of lookback.'),
  arrows(
    'ids',
    ['agents', 'text'],
    'src/ids owns the ids (typed references, the app encoding): it knows the agent names and nothing else.',
  ),
  arrows(
    'agents',
    ['store', 'text'],
    "src/agents reads the other agents' files into its index; the doors and the recall core use it, not the reverse.",
  ),
  arrows('mirror', ['store'], 'src/mirror writes a state.db-shaped copy; it knows only src/store.'),
  arrows('postgres', ['store', 'mirror'], 'src/postgres feeds a mirror from PostgreSQL; no door.'),
  arrows(
    'hosts',
    ['agents', 'store', 'text', 'mirror'],
    'src/hosts reaches other machines over ssh and mirrors them; its commands live in src/cli/hosts.ts.',
  ),
  arrows(
    'recall',
    ['store', 'agents', 'anchors', 'demo', 'postgres', 'hosts', 'text', 'ids'],
    "The recall core answers every door: it imports no door (src/hosts is a source's storage: a synced machine's mirror).",
  ),
  arrows(
    'mcp',
    ['agents', 'store', 'text', 'recall', 'hosts', 'cli', 'ids'],
    'The MCP server parses tool arguments and prints answers; it asks src/recall, never the command line, the app or a source directly.',
    [
      CLI_HELPERS_ONLY,
      {
        group: ['**/agents/recall*', '**/store/recall*'],
        message: 'src/mcp asks src/recall, not a source (types are fine).',
        allowTypeImports: true,
      },
    ],
  ),
  arrows(
    'cli',
    FOLDERS.filter((f) => !['app', 'demo'].includes(f)),
    'The command line parses, asks src/recall and prints; the app is reached through src/tui (lazyApp.ts) only.',
  ),
];

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
  ...FOLDER_ARROWS,
  {
    // Geometry measures and lays out what it is given: no data module, no source, and
    // no id arithmetic (an id is decoded by src/ids only; tests/architecture/ids.test.ts).
    files: ['src/app/geometry/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react', 'ink'],
          patterns: [
            {
              group: [
                '**/data/*',
                '**/agents/*',
                '**/recall/*',
                '**/store/*',
                '!**/store/types*',
                '!**/store/content*',
                '**/components/*',
                '**/cli/*',
                '**/tui/*',
                '**/demo/*',
              ],
              message:
                "src/app/geometry imports no data module or source (but the store's message shapes); ids through src/ids.",
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
              group: [
                '**/store/*',
                '**/cli/*',
                '**/tui/*',
                '**/app/data/*',
                '**/agents/*',
                '**/recall/*',
              ],
              message:
                'Views render app state: no data module, no source (ids through src/ids, tags through src/app/tags.ts).',
            },
          ],
        },
      ],
    },
  },
);
