/**
 * Builds the studio (studio/), the web app bot authors and analysts sign in to at /studio:
 * dist/studio/index.html and content-hashed scripts. It loads only there, never on a host
 * page, so it has no share of the widget's size budget. No inline script or style: the
 * server's CSP for /studio allows scripts and styles from its own origin only. Each section's
 * screen, the designer's map and uPlot are chunks of their own, loaded when first needed (main.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { writeCompressed } from './scripts/widget-assets.ts';

/** Every script, style and map of the build gets .br and .gz siblings, served by Accept-Encoding (server/studio-server/http/studio-pages.ts). */
function precompress(): Plugin {
  return {
    name: 'studio-precompress',
    apply: 'build',
    closeBundle() {
      const dir = path.join('dist', 'studio', 'assets');
      for (const name of readdirSync(dir))
        if (/\.(js|css|map)$/.test(name)) writeCompressed(path.join(dir, name), readFileSync(path.join(dir, name)));
    },
  };
}

export default defineConfig({
  root: 'studio',
  base: '/studio/',
  publicDir: false,
  plugins: [precompress()],
  build: {
    outDir: '../dist/studio',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    // The module preload polyfill would be a separate inline-free chunk anyway; every browser we support has modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
