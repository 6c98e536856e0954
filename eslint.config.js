// @ts-check
import tseslint from 'typescript-eslint';

const ADAPTERS = ['**/http/*', '**/msw/*', '**/cli/*', '**/index.js'];
const NODE_AND_TRANSPORT = ['node:*', 'express', 'msw', 'msw/*', 'ioredis'];

/** The core reads time, randomness and the process only through what it is given. */
const deterministicCore = {
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: 'Read time from the injected Clock.' },
    { object: 'Math', property: 'random', message: 'Use a seeded stream from random.ts.' },
    { object: 'performance', property: 'now', message: 'Read time from the injected Clock.' },
  ],
  'no-restricted-syntax': [
    'error',
    {
      selector: "NewExpression[callee.name='Date'][arguments.length=0]",
      message: 'new Date() reads the wall clock; pass an instant from the injected Clock.',
    },
  ],
  'no-restricted-globals': [
    'error',
    ...['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'queueMicrotask'].map((name) => ({
      name,
      message: 'The core never waits: return delayMs in the response and let the adapter wait.',
    })),
    { name: 'process', message: 'The core does not read the process; inject what it needs.' },
  ],
};

const restrictImports = (patterns, message, more = []) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }, ...more] }],
});

/** Routes declare their access; only the pipeline checks a scope. */
const NO_SCOPE_CHECKS = [
  {
    group: ['**/auth/access.js'],
    importNames: ['hasScope'],
    message: 'Declare the scope in the route (access: { kind, scope }); the pipeline enforces it.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', '.dist-next-*/**', '.dist-old-*/**', '.test-dist/**', 'node_modules/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: restrictImports(['**/sim/*', '**/fixtures/*', '**/scenarios/*', ...ADAPTERS, ...NODE_AND_TRANSPORT], 'contract imports only zod.'),
  },
  {
    files: ['src/sim/**/*.ts'],
    rules: {
      ...deterministicCore,
      ...restrictImports(['**/fixtures/*', '**/scenarios/*', ...ADAPTERS, ...NODE_AND_TRANSPORT], 'The core imports only contract and its own modules; the world is injected.'),
    },
  },
  {
    files: ['src/sim/{query,manage,ingest,control,discovery,admin}/**/*.ts'],
    rules: restrictImports(
      ['**/fixtures/*', '**/scenarios/*', ...ADAPTERS, ...NODE_AND_TRANSPORT],
      'The core imports only contract and its own modules; the world is injected.',
      NO_SCOPE_CHECKS,
    ),
  },
  {
    files: ['src/fixtures/**/*.ts', 'src/scenarios/**/*.ts'],
    rules: {
      ...deterministicCore,
      ...restrictImports([...ADAPTERS, ...NODE_AND_TRANSPORT], 'fixtures and scenarios import only contract and sim.'),
    },
  },
  {
    // The inspector's browser code, bundled into the core as text (npm run build:inspector).
    // Its names are checked by src/inspector/tsconfig.json (the DOM, no Node types; no-undef is
    // off for TypeScript); here, what it may import at run time: only its own modules.
    files: ['src/inspector/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/sim/**', '**/contract/**', 'zod', 'uplot'],
              allowTypeImports: true,
              message: 'The inspector runs in a browser: of the core, the contract, zod and uPlot (the page\'s global, uplot-global.ts) it imports types only.',
            },
            {
              group: ['node:*', '**/fixtures/*', '**/scenarios/*', '**/store/*', ...ADAPTERS, 'express', 'msw', 'msw/*', 'ioredis'],
              message: 'The inspector runs in a browser and imports only its own modules.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/http/**/*.ts', 'src/msw/**/*.ts'],
    rules: restrictImports(['**/cli/*'], 'Nothing imports the CLI.'),
  },
  {
    // analytics-sim/msw/browser is bundled for web pages: only the node entry may reach msw/node.
    files: ['src/msw/**/*.ts'],
    ignores: ['src/msw/index.ts', 'src/msw/setup-simulator.ts', 'src/msw/interception.ts'],
    rules: restrictImports(
      ['**/cli/*', '**/http/*', 'node:*', 'msw/node', 'express', 'ioredis'],
      'src/msw is bundled for browsers: import msw, msw/browser and the core only (node-only code lives in setup-simulator.ts and interception.ts).',
    ),
  },
);
