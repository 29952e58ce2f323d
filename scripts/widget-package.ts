/**
 * Assembles the publishable npm package in dist/package/ after Vite wrote its index.js:
 * the .d.ts types (tsc -p tsconfig.package.json), a package.json of its own (the repo's
 * is private and describes the server) and a README. `npm run pack:widget` packs it.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const PACKAGE_NAME = 'chatbot-widget';
export const PACKAGE_DIR = 'dist/package';
/** Left to the app's bundler, declared as exact-pinned dependencies (same versions as this repo). */
export const PACKAGE_EXTERNALS = ['lit', 'socket.io-client'];
const TYPES_ENTRY = './types/widget/package.d.ts';

interface RootManifest {
  readonly version: string;
  readonly description: string;
  readonly dependencies: Readonly<Record<string, string>>;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** tsc keeps the sources' `./x.ts` specifiers in .d.ts files; `./x.js` is what any resolver finds. */
function pointTypesAtJs(typesDir: string): void {
  for (const file of filesUnder(typesDir).filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/((?:from|import\()\s*['"]\.{1,2}\/[^'"]*?)\.ts(['"])/g, '$1.js$2'));
  }
}

export function writeWidgetPackage(): void {
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.package.json'], {
    stdio: 'inherit',
  });
  if (tsc.status !== 0) throw new Error('tsc -p tsconfig.package.json failed: the package has no types');
  pointTypesAtJs(path.join(PACKAGE_DIR, 'types'));

  const root = JSON.parse(readFileSync('package.json', 'utf8')) as RootManifest;
  const dependencies = Object.fromEntries(PACKAGE_EXTERNALS.map((name) => [name, root.dependencies[name]]));
  const manifest = {
    name: PACKAGE_NAME,
    version: root.version,
    description: 'The chat widget as a custom element and page API, for apps built with a bundler.',
    type: 'module',
    exports: { '.': { types: TYPES_ENTRY, default: './index.js' }, './package.json': './package.json' },
    module: './index.js',
    types: TYPES_ENTRY,
    // index.js and the chunks it imports when first needed (a carousel…), with their source maps.
    files: ['*.js', '*.js.map', 'types', 'README.md'],
    // Importing registers <chat-widget>: a bundler must keep the import even when nothing of it is used.
    sideEffects: ['./index.js'],
    dependencies,
  };
  writeFileSync(path.join(PACKAGE_DIR, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    path.join(PACKAGE_DIR, 'README.md'),
    `# ${PACKAGE_NAME}\n\nThe chat widget for apps built with a bundler. Importing the package registers \`<chat-widget>\`.\n\n` +
      "```ts\nimport { ChatWidget } from '" +
      PACKAGE_NAME +
      "';\n\nChatWidget.init({ serverUrl: 'https://bot.example.com', user: { email: 'ada@example.com' } });\nChatWidget.on('closeChat', () => ChatWidget.close());\n```\n\n" +
      'Or place the element yourself: `<chat-widget server-url="https://bot.example.com" locale="de"></chat-widget>`.\n',
  );
}
