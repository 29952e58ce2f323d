/**
 * Builds the widget for the browser:
 * - dist/widget.js  — the script-tag file (widget/embed.ts), one self-contained minified IIFE,
 *   then given a hashed twin, a source map and .br/.gz copies (scripts/widget-assets.ts);
 * - dist/widget.mjs — the library entry (widget/index.ts) as one self-contained ES module.
 * `vite build` runs both: the second build starts when the first has written its file.
 * Budget: `gzip -9c dist/widget.js | wc -c` must stay under 30720 bytes.
 */
import { build, defineConfig, type Plugin, type UserConfig } from 'vite';
import { writeWidgetAssets } from './scripts/widget-assets.ts';

const shared = {
  // The widget has no public/ folder; keep Vite from copying anything else into dist/.
  publicDir: false,
  // socket.io's browser build only logs through `debug` in development.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
} satisfies UserConfig;

function esmBuild(): Plugin {
  return {
    name: 'chat-widget-esm-build',
    apply: 'build',
    async closeBundle() {
      await build({
        ...shared,
        // Inline config only; loading this file again would recurse into this plugin.
        configFile: false,
        logLevel: 'warn',
        build: {
          outDir: 'dist',
          // dist/ also holds the server build and widget.js; never wipe it.
          emptyOutDir: false,
          // Vite keeps ES lib output readable (whitespace) for downstream bundlers; fine for this file.
          minify: true,
          lib: { entry: 'widget/index.ts', formats: ['es'], fileName: () => 'widget.mjs' },
        },
      });
    },
  };
}

/** Hashed name, precompressed copies and manifest, once widget.js and its map are written. */
function widgetAssets(): Plugin {
  return {
    name: 'chat-widget-assets',
    apply: 'build',
    closeBundle: () => void writeWidgetAssets('dist'),
  };
}

export default defineConfig({
  ...shared,
  plugins: [esmBuild(), widgetAssets()],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    minify: true,
    // Served beside the script and linked from it; scripts/widget-assets.ts cleans its source paths.
    sourcemap: true,
    target: 'es2020',
    lib: {
      entry: 'widget/embed.ts',
      formats: ['iife'],
      name: 'ChatWidgetBundle',
      fileName: () => 'widget.js',
    },
  },
});
