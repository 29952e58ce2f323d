/**
 * Builds the widget for the browser:
 * - dist/widget.js — the script-tag file: the loader (widget/loader.ts), a few KB on the host
 *   page's critical path, which loads the rest of the widget on idle or at the first open;
 * - dist/widget.<hash>.js — the rest (widget/embed.ts), a minified ES module the loader imports,
 *   and dist/widget.<name>.<hash>.js, the chunks it imports when a message first needs them
 *   (widget/render/lazy.ts); all with source maps and .br/.gz copies (scripts/widget-assets.ts);
 * - dist/package/ — the npm package (widget/package.ts as an ES module, its .d.ts types and
 *   a generated package.json; scripts/widget-package.ts). `npm run pack:widget` packs it.
 * `vite build` runs both: the package build starts when the first has written its file.
 * Budget: scripts/widget-size.mjs --check.
 */
import { minifyTemplates } from './scripts/minify-templates.ts';
import { build, defineConfig, type Plugin, type UserConfig } from 'vite';
import { localeFiles, writeLoaderAssets, writeRestAssets } from './scripts/widget-assets.ts';
import { LOCALES } from './widget/i18n/locales/all.ts';
import { PACKAGE_DIR, PACKAGE_EXTERNALS, writeWidgetPackage } from './scripts/widget-package.ts';

/** Every language but English, as files the rest fetches by the names it is built with. */
const locales = localeFiles(LOCALES);
const localeNames = Object.fromEntries(Object.entries(locales).map(([language, file]) => [language, file.name]));
/** The loader's stand-in launcher names itself in the page's language. */
const openLabels = Object.fromEntries(
  Object.entries(LOCALES).map(([language, strings]) => [language, strings.openChat]),
);

const shared = {
  // The widget has no public/ folder; keep Vite from copying anything else into dist/.
  publicDir: false,
  // socket.io's browser build only logs through `debug` in development.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
} satisfies UserConfig;

function packageBuild(): Plugin {
  return {
    name: 'chat-widget-package-build',
    apply: 'build',
    async closeBundle() {
      await build({
        ...shared,
        // Inline config only; loading this file again would recurse into this plugin.
        configFile: false,
        logLevel: 'warn',
        build: {
          outDir: PACKAGE_DIR,
          emptyOutDir: true,
          minify: true,
          sourcemap: true,
          target: 'es2020',
          lib: { entry: 'widget/package.ts', formats: ['es'], fileName: () => 'index.js' },
          // The app installs these as the package's dependencies: its bundler dedupes them.
          // The widget's chunks (a carousel…) stay chunks: the app's bundler splits them off too.
          // What index.js and a chunk share stays in index.js (allow-extension), the one file marked
          // as having side effects: a common chunk of its own would be dropped by an app importing only for them.
          rolldownOptions: {
            external: PACKAGE_EXTERNALS,
            preserveEntrySignatures: 'allow-extension',
            output: { chunkFileNames: '[name].[hash].js' },
          },
        },
      });
      writeWidgetPackage();
    },
  };
}

/**
 * Two modules of socket.io's client swapped for smaller equivalents in the script tag's build:
 * - engine.io-client lists its WebTransport transport beside WebSocket and polling, so it is
 *   bundled though the widget only ever asks for `websocket` and `polling`
 *   (widget/transport/socket-transport.ts): an empty stand-in that would fail loudly if asked;
 * - engine.io-parser decodes base64 with its own table, written for browsers without `atob`:
 *   the same decoding through `atob`, which every browser Lit runs in has;
 * - socket.io-parser looks through every payload for binary attachments (ArrayBuffer, Blob) to
 *   send them as separate frames, and can put such events back together: the protocol is JSON
 *   only (shared/protocol.ts), so payloads are sent as JSON, and a binary event from a server
 *   would fail loudly.
 * Together about 5 KB raw, 1.6 KB gzipped, off the download.
 */
function leanSocketClient(): Plugin {
  const replacements: Record<string, { importer: string; code: string }> = {
    './webtransport.js': {
      importer: 'engine.io-client',
      code: 'export class WT { constructor() { throw new Error("WebTransport is not built into this widget"); } }',
    },
    './contrib/base64-arraybuffer.js': {
      importer: 'engine.io-parser',
      code: 'export const decode = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;',
    },
    './is-binary.js': {
      importer: 'socket.io-parser',
      code: 'export const hasBinary = () => false; export const isBinary = (o) => o instanceof ArrayBuffer || ArrayBuffer.isView(o) || o instanceof Blob;',
    },
    './binary.js': {
      importer: 'socket.io-parser',
      code: 'const no = () => { throw new Error("binary socket.io events are not built into this widget"); }; export { no as deconstructPacket, no as reconstructPacket };',
    },
  };
  const prefix = '\0chat-widget-lean:';
  return {
    name: 'chat-widget-lean-socket-client',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      const replacement = replacements[source];
      return replacement && importer?.includes(replacement.importer) ? prefix + source : null;
    },
    load(id) {
      return id.startsWith(prefix) ? (replacements[id.slice(prefix.length)]?.code ?? null) : null;
    },
  };
}

/**
 * After embed.ts and its chunks are built under their hashed names: compress them, then build
 * the loader (widget/loader.ts) that imports the entry under its name, and write the manifest.
 */
function widgetAssets(): Plugin {
  const built: { script: string; chunks: Record<string, string> } = { script: '', chunks: {} };
  return {
    name: 'chat-widget-assets',
    apply: 'build',
    writeBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        if (file.isEntry) built.script = file.fileName;
        else built.chunks[file.name] = file.fileName;
      }
    },
    async closeBundle() {
      const script = writeRestAssets('dist', built);
      await build({
        ...shared,
        configFile: false,
        logLevel: 'warn',
        define: {
          ...shared.define,
          __CHAT_WIDGET_SCRIPT__: JSON.stringify(script),
          __CHAT_WIDGET_OPEN_LABELS__: JSON.stringify(openLabels),
        },
        build: {
          outDir: 'dist',
          emptyOutDir: false,
          minify: true,
          sourcemap: true,
          target: 'es2020',
          lib: {
            entry: 'widget/loader.ts',
            formats: ['iife'],
            name: 'ChatWidgetLoader',
            fileName: () => 'widget-loader.js',
          },
        },
      });
      writeLoaderAssets('dist', built, locales);
    },
  };
}

export default defineConfig({
  ...shared,
  define: { ...shared.define, __CHAT_WIDGET_LOCALES__: JSON.stringify(localeNames) },
  plugins: [leanSocketClient(), minifyTemplates(), widgetAssets(), packageBuild()],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    minify: true,
    // Served beside the script and linked from it; scripts/widget-assets.ts cleans its source paths.
    sourcemap: true,
    // Class fields as written (Chrome 72+, Safari 14.1+, Firefox 69+, which Lit 3 needs anyway), not defineProperty helpers.
    target: 'es2022',
    lib: {
      entry: 'widget/embed.ts',
      formats: ['es'],
      // Content-hashed names, cached for good; a chunk and the entry it imports change names together.
      fileName: () => 'widget.[hash:12].js',
    },
    rolldownOptions: {
      preserveEntrySignatures: 'allow-extension',
      output: { chunkFileNames: 'widget.[name].[hash:12].js', hashCharacters: 'hex', minify: true },
    },
  },
});
