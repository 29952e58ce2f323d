// @ts-check
import tseslint from 'typescript-eslint';

/** A no-restricted-imports rule from regex → reason pairs. */
const forbid = (/** @type {Record<string, string>} */ rules) => ({
  'no-restricted-imports': [
    'error',
    { patterns: Object.entries(rules).map(([regex, message]) => ({ regex, message })) },
  ],
});

const drivers = '^(express|socket\\.io|mongodb|better-sqlite3|pino|nodemailer)$';
const adapters = ['stores', 'channels', 'api', 'integrations', 'jobs', 'cluster', 'studio-server', 'mail', 'sms'];
/** A folder of one of these names, wherever it sits in the import's path. */
const folder = (/** @type {string[]} */ names) => `(^|/)(${names.join('|')})/`;

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', '.cache/**', 'docs/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-ignore': true, 'ts-expect-error': 'allow-with-description' },
      ],
    },
  },
  {
    // chai's `expect(x).to.be.true` reads as an expression.
    files: ['widget/test/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  // Who may import whom: docs/architecture.md.
  {
    files: ['shared/**/*.ts'],
    rules: forbid({
      [folder(['server', 'widget', 'demo'])]: 'shared/ imports nothing of the project.',
      '^node:': 'shared/ runs in browsers too: no Node APIs.',
    }),
  },
  {
    files: ['widget/**/*.ts'],
    ignores: ['widget/transport/**'],
    rules: forbid({
      [folder(['server', 'demo'])]: 'The widget imports shared/ only.',
      '^socket\\.io-client$': 'Only widget/transport/ talks socket.io.',
      '^zod$|protocol-schemas': 'Runtime validators stay on the server: they would bloat the widget bundle.',
    }),
  },
  {
    // The studio's web app: a browser app like the widget; it talks to the server over HTTP only.
    files: ['studio/**/*.ts'],
    // Its tests run in Node and check the designer's model against the server's own checks.
    ignores: ['studio/**/*.test.ts', 'studio/preview/**'],
    rules: forbid({
      [folder(['server', 'demo', 'widget'])]:
        'The studio web app imports shared/ only; it reaches the server over HTTP.',
      '^node:': 'The studio runs in browsers: no Node APIs.',
    }),
  },
  {
    // The designer's preview panel: the real widget is its chat (the element and its socket transport), nothing else of it.
    files: ['studio/preview/**/*.ts'],
    rules: forbid({
      [folder(['server', 'demo'])]: 'The studio web app imports shared/ only; it reaches the server over HTTP.',
      '(^|/)widget/(?!define\\.ts$|transport/)':
        'The preview panel takes the widget element (widget/define.ts) and its socket transport only.',
      '^node:': 'The studio runs in browsers: no Node APIs.',
    }),
  },
  {
    files: ['widget/transport/**/*.ts'],
    rules: forbid({
      [folder(['server', 'demo'])]: 'The widget imports shared/ only.',
      '^zod$|protocol-schemas': 'Runtime validators stay on the server.',
    }),
  },
  {
    files: ['server/engine/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      ...forbid({
        [drivers]: 'The engine is pure: no I/O libraries.',
        '^node:': 'The engine is pure: no Node APIs.',
        [folder(['app', 'ports', ...adapters])]: 'The engine imports shared/ and definition/ only.',
      }),
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'The engine gets time from its caller.' },
        { object: 'Math', property: 'random', message: 'The engine gets randomness from its caller.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'The engine gets time from its caller.',
        },
      ],
    },
  },
  {
    files: ['server/definition/**/*.ts', 'server/ports/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: forbid({
      [folder(['app', 'engine', 'bot', 'cli', 'start', ...adapters])]:
        'definition/ and ports/ sit below the use cases and adapters.',
      [drivers]: 'No drivers here.',
    }),
  },
  {
    // The settings' shapes and parsers: below config.ts and the adapters that use what they parse.
    files: ['server/settings/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: forbid({
      [folder(['app', 'engine', 'bot', 'cli', 'start', ...adapters])]:
        'settings/ sits below config.ts and the adapters: it parses settings, never wires them.',
      '(^|/)(main|config)\\.ts$': 'settings/ sits below config.ts: config.ts imports it, never the other way.',
      [drivers]: 'No drivers here.',
    }),
  },
  {
    // The environment, validated: it names settings and their shapes, never an adapter.
    files: ['server/config.ts'],
    rules: forbid({
      [folder(['app', 'engine', 'bot', 'cli', 'start', ...adapters])]:
        "config.ts imports no adapter: the settings' parsers live in settings/ (or shared/), and start/ hands them out.",
      [drivers]: 'No drivers here.',
    }),
  },
  {
    // The loose files beside main.ts: the logger, the project's paths, the server's own secrets file. Everything
    // may use them, so they use nothing of the project.
    files: ['server/logger.ts', 'server/paths.ts', 'server/secrets.ts'],
    rules: forbid({
      [folder(['app', 'engine', 'bot', 'cli', 'start', 'nlp', 'definition', 'settings', ...adapters])]:
        'The files beside main.ts sit below everything: they import no folder of the server.',
      '(^|/)(main|config)\\.ts$': 'The files beside main.ts sit below config.ts: it is handed what they give.',
    }),
  },
  {
    // Understanding: models trained from the definition, embeddings behind server/ports/embeddings.ts.
    // HTTP leaves through the guarded client main.ts hands in, never an adapter imported here.
    files: ['server/nlp/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test/**'],
    rules: forbid({
      [folder(['app', 'engine', ...adapters])]: 'nlp/ sits beside the use cases; main.ts wires what it needs.',
      [drivers]: 'No drivers here.',
    }),
  },
  {
    // The running bot: load, check, test and prepare a definition, put a version in service, follow the other nodes.
    // Its integration steps are checked against their step types' schemas and prepared into the runtime the bot
    // runs, so the step types' contract, their registry and that runtime (integrations/step-contract/, step-types/,
    // run-integration.ts, bot-steps.ts, settings.ts and the error a bad setting throws) are part of what a definition
    // is; nothing else of integrations/.
    // It drives the use cases (a bot test is a conversation), which never import it.
    files: ['server/bot/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: forbid({
      [drivers]: 'bot/ reaches the world through ports/; start/ wires the drivers.',
      [folder(adapters.filter((name) => name !== 'integrations'))]:
        'bot/ never imports an adapter; start/ (or cli/main.ts) hands it what it needs through ports/.',
      '(^|/)integrations/(?!step-contract/|step-types/|run-integration\\.ts$|bot-steps\\.ts$|settings\\.ts$|http/integration-error\\.ts$)':
        'bot/ takes the step types and their runtime from integrations/, nothing else of it.',
      [folder(['cli', 'start'])]: 'bot/ is used by cli/ and start/, never the other way.',
      '(^|/)(main|config)\\.ts$': 'bot/ is handed its settings; start/ reads the configuration.',
    }),
  },
  {
    // The command line's commands: they use the running bot (bot/) and ports; only its entry wires adapters.
    files: ['server/cli/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test/**', 'server/cli/main.ts'],
    rules: forbid({
      [drivers]: 'cli/ commands reach the world through bot/ and ports/; cli/main.ts wires the rest.',
      [folder(['app', 'engine', 'nlp', 'start', ...adapters])]:
        'cli/ commands import bot/, ports/, definition/ and config.ts only; cli/main.ts wires the rest.',
    }),
  },
  {
    // The command line's entry wires as server/main.ts does (the store, the studio's accounts, Telegram's webhook).
    files: ['server/cli/main.ts'],
    rules: forbid({
      [folder(['app', 'engine', 'nlp'])]: 'cli/main.ts wires; the commands use bot/.',
    }),
  },
  {
    // The composition root builds and wires; what runs on its own (polls, subscriptions, swaps) lives in bot/.
    files: ['server/start/**/*.ts', 'server/main.ts'],
    ignores: ['**/*.test.ts'],
    rules: forbid({
      [folder(['cli'])]: 'start/ does not import the command line; cli/main.ts imports start/.',
    }),
  },
  {
    files: ['server/app/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: forbid({
      [drivers]: 'Use cases reach the world through ports/.',
      [folder(adapters)]: 'Use cases never import adapters; main.ts wires them.',
    }),
  },
  // Test helpers (a test/ folder) are tests' code, as nlp/'s are: they may reach any adapter a test wires.
  ...adapters.map((name) => ({
    files: [`server/${name}/**/*.ts`],
    ignores: ['**/*.test.ts', '**/contract/**', '**/test/**'],
    rules: forbid({
      [folder(adapters.filter((other) => other !== name))]: 'Adapters do not import each other; main.ts wires them.',
    }),
  })),
  // After the adapters' rule, which it extends (a later config's rule replaces an earlier one's).
  // Channels are siblings: a new channel is a new folder, never an import of another.
  ...['webchat', 'rest', 'connector'].map((name) => ({
    files: [`server/channels/${name}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: forbid({
      [folder(adapters.filter((other) => other !== 'channels'))]:
        'Adapters do not import each other; main.ts wires them.',
      [`(^|/)channels/(?!${name}/)[^/]+/`]: 'Channels do not import each other; main.ts wires them.',
      [`^\\.\\./(?!${name}/)[a-z-]+/`]: 'Channels do not import each other; main.ts wires them.',
    }),
  })),
  // Vendor connectors sit on the connector core (channels/connector/) and import no other channel; Meta's
  // products (WhatsApp, Messenger) share their platform's handshake, signature and Graph client (channels/meta/).
  ...['telegram', 'whatsapp', 'twilio', 'botframework', 'slack', 'messenger', 'meta'].map((name) => ({
    files: [`server/channels/${name}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: forbid({
      [folder(adapters.filter((other) => other !== 'channels'))]:
        'Adapters do not import each other; main.ts wires them.',
      [`(^|/)channels/(?!(${name}|connector|meta)/)[^/]+/`]:
        'Channels do not import each other (the connector core and the Meta platform excepted); main.ts wires them.',
      [`^\\.\\./(?!(${name}|connector|meta)/)[a-z-]+/`]:
        'Channels do not import each other (the connector core and the Meta platform excepted); main.ts wires them.',
    }),
  })),
);
