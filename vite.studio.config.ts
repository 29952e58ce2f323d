/**
 * Builds the studio (studio/), the web app bot authors and analysts sign in to at /studio:
 * dist/studio/index.html and content-hashed scripts. It loads only there, never on a host
 * page, so it has no share of the widget's size budget. No inline script or style: the
 * server's CSP for /studio allows scripts and styles from its own origin only.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'studio',
  base: '/studio/',
  publicDir: false,
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
