/**
 * Build step after `vite build` wrote dist/widget.js and its map: gives the script a
 * content-hashed name, cleans the map's source paths, precompresses every served file
 * (Brotli and gzip, at maximum level, once at build time instead of per request) and
 * writes dist/widget-manifest.json, the list server/api/widget-assets.ts serves.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** One file the server may send, keyed by its URL name in the manifest. */
export interface WidgetAssetEntry {
  readonly contentType: string;
  /** `immutable`: the name changes with the content. `short`: a stable name pages link to. */
  readonly cache: 'immutable' | 'short';
  /** Hash of the uncompressed bytes; the server derives one ETag per encoding from it. */
  readonly hash: string;
}

export interface WidgetManifest {
  /** The hashed script name, e.g. `widget.3f2a9c1b0d4e.js`. */
  readonly script: string;
  readonly files: Readonly<Record<string, WidgetAssetEntry>>;
}

export const MANIFEST_NAME = 'widget-manifest.json';
const JS = 'text/javascript; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const MAP_COMMENT = /\n?\/\/# sourceMappingURL=\S+\s*$/;

const hashOf = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);

/** Writes the file with its .br and .gz siblings. */
function writeCompressed(file: string, bytes: Buffer): void {
  writeFileSync(file, bytes);
  writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
}

/**
 * The map as Vite wrote it names sources relative to dist/ (`../widget/embed.ts`,
 * `../node_modules/lit-html/…`); strip the climb so nothing hints at the build machine's layout.
 */
function cleanMap(raw: string, file: string): string {
  const map = JSON.parse(raw) as { sources: string[]; file?: string; sourceRoot?: string };
  map.file = file;
  map.sources = map.sources.map((source) => {
    // node_modules may sit elsewhere (a symlink), which shows as a longer climb: keep only the package path.
    const packagePath = source.lastIndexOf('node_modules/');
    return packagePath >= 0 ? source.slice(packagePath) : source.replace(/^(\.\.\/)+/, '').replace(/^\/+/, '');
  });
  delete map.sourceRoot;
  return JSON.stringify(map);
}

export function writeWidgetAssets(distDir: string): WidgetManifest {
  const code = readFileSync(path.join(distDir, 'widget.js'), 'utf8').replace(MAP_COMMENT, '');
  const hash = hashOf(code);
  const script = `widget.${hash}.js`;
  const mapName = `${script}.map`;
  // Files of earlier builds would pile up in dist/ (it is never wiped): only this build's stay.
  for (const name of readdirSync(distDir)) {
    if (/^widget\.[0-9a-f]{12}\.js/.test(name)) rmSync(path.join(distDir, name));
  }
  const linked = Buffer.from(`${code}\n//# sourceMappingURL=${mapName}\n`);
  const map = Buffer.from(cleanMap(readFileSync(path.join(distDir, 'widget.js.map'), 'utf8'), script));
  rmSync(path.join(distDir, 'widget.js.map'));
  // The stable name carries the same bytes (short cache); its map link is relative, so it works from both URLs.
  writeCompressed(path.join(distDir, 'widget.js'), linked);
  writeCompressed(path.join(distDir, script), linked);
  writeCompressed(path.join(distDir, mapName), map);
  const manifest: WidgetManifest = {
    script,
    files: {
      'widget.js': { contentType: JS, cache: 'short', hash: hashOf(linked) },
      [script]: { contentType: JS, cache: 'immutable', hash: hashOf(linked) },
      [mapName]: { contentType: JSON_TYPE, cache: 'immutable', hash: hashOf(map) },
    },
  };
  writeFileSync(path.join(distDir, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
