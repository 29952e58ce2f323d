/**
 * Build steps around the two script builds (vite.config.ts):
 * 1. writeRestAssets, after embed.ts was built to its content-hashed name `widget.<hash>.js`
 *    (the module loader.ts imports) with its chunks `widget.<name>.<hash>.js` (loaded when a
 *    message first needs one): removes earlier builds' files;
 * 2. writeLoaderAssets, after loader.ts was built to dist/widget.js: the stable name pages link.
 * Both clean their map's source paths and precompress (Brotli and gzip, maximum level, once
 * at build time instead of per request); the second writes dist/widget-manifest.json, the
 * list server/api/widget-assets.ts serves.
 * Besides them, each language but English as `widget.<lang>.<hash>.json` (localeFiles), which
 * the rest fetches when a page asks for that language (widget/i18n/locale-fetch.ts).
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

/** What the rest's build wrote: the entry and its chunks, under their hashed names. */
export interface RestBuild {
  readonly script: string;
  /** Chunk name → file, e.g. `carousel` → `widget.carousel.0c1d2e3f4a5b.js`. */
  readonly chunks: Readonly<Record<string, string>>;
}

export interface WidgetManifest {
  /** The stable loader, `widget.js`. */
  readonly loader: string;
  /** The rest of the widget under its hashed name, e.g. `widget.3f2a9c1b0d4e.js`. */
  readonly script: string;
  /** The rest's chunks, loaded when first needed: name → file (served like the rest: immutable). */
  readonly chunks: Readonly<Record<string, string>>;
  /** Language → its strings' file, e.g. `fr` → `widget.fr.0c1d2e3f4a5b.json`. */
  readonly locales: Readonly<Record<string, string>>;
  readonly files: Readonly<Record<string, WidgetAssetEntry>>;
}

export const MANIFEST_NAME = 'widget-manifest.json';
export const LOADER_NAME = 'widget.js';
const JS = 'text/javascript; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const MAP_COMMENT = /\n?\/\/# sourceMappingURL=\S+\s*$/;

const hashOf = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);

/** Writes the file with its .br and .gz siblings (the studio's build uses it too). */
export function writeCompressed(file: string, bytes: Buffer): void {
  writeFileSync(file, bytes);
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
  );
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
}

/**
 * The map as Vite wrote it names sources relative to dist/ (`../widget/embed.ts`,
 * `../node_modules/lit-html/…`); keep only the project-relative part so nothing hints at
 * the build machine's layout.
 */
function cleanMap(raw: string, file: string): Buffer {
  const map = JSON.parse(raw) as { sources: string[]; file?: string; sourceRoot?: string };
  map.file = file;
  map.sources = map.sources.map((source) => {
    // node_modules may sit elsewhere (a symlink), which shows as a longer climb: keep only the package path.
    const packagePath = source.lastIndexOf('node_modules/');
    return packagePath >= 0 ? source.slice(packagePath) : source.replace(/^(\.\.\/)+/, '').replace(/^\/+/, '');
  });
  delete map.sourceRoot;
  return Buffer.from(JSON.stringify(map));
}

/** Reads a built script and its map, links the map under `mapName` and writes both compressed as `name`. */
function writeScript(distDir: string, built: string, name: string, mapName: string): { code: Buffer; map: Buffer } {
  const code = Buffer.from(
    `${readFileSync(path.join(distDir, built), 'utf8').replace(MAP_COMMENT, '')}\n//# sourceMappingURL=${mapName}\n`,
  );
  const map = cleanMap(readFileSync(path.join(distDir, `${built}.map`), 'utf8'), name);
  rmSync(path.join(distDir, built));
  rmSync(path.join(distDir, `${built}.map`));
  writeCompressed(path.join(distDir, name), code);
  writeCompressed(path.join(distDir, mapName), map);
  return { code, map };
}

/** One JSON file per language but English (built into the rest), named by its content's hash. */
export function localeFiles(tables: Readonly<Record<string, object>>): Record<string, { name: string; bytes: Buffer }> {
  const files: Record<string, { name: string; bytes: Buffer }> = {};
  for (const [language, strings] of Object.entries(tables)) {
    if (language === 'en') continue;
    const bytes = Buffer.from(JSON.stringify(strings));
    files[language] = { name: `widget.${language}.${hashOf(bytes)}.json`, bytes };
  }
  return files;
}

/** Step 1: returns the hashed name the loader is built to import. */
export function writeRestAssets(distDir: string, built: RestBuild): string {
  if (!built.script) throw new Error('the widget build wrote no entry script');
  const files = [built.script, ...Object.values(built.chunks)];
  // Files of earlier builds would pile up in dist/ (it is never wiped): only this build's stay.
  for (const name of readdirSync(distDir)) {
    const script = /^(widget\.(?:[a-z][a-z0-9-]*\.)?[0-9a-f]{12}\.js)(\.map)?(\.br|\.gz)?$/.exec(name)?.[1];
    if (script && !files.includes(script)) rmSync(path.join(distDir, name));
  }
  for (const file of files) writeScript(distDir, file, file, `${file}.map`);
  return built.script;
}

/** Step 2: the loader under the stable name, the language files, and the manifest of everything served. */
export function writeLoaderAssets(
  distDir: string,
  built: RestBuild,
  locales: ReturnType<typeof localeFiles>,
): WidgetManifest {
  const { script, chunks } = built;
  for (const { name, bytes } of Object.values(locales)) writeCompressed(path.join(distDir, name), bytes);
  const loaderMap = `${LOADER_NAME}.map`;
  const loader = writeScript(distDir, 'widget-loader.js', LOADER_NAME, loaderMap);
  const immutableScript = (name: string) => ({
    [name]: {
      contentType: JS,
      cache: 'immutable',
      hash: hashOf(readFileSync(path.join(distDir, name))),
    } satisfies WidgetAssetEntry,
    [`${name}.map`]: {
      contentType: JSON_TYPE,
      cache: 'immutable',
      hash: hashOf(readFileSync(path.join(distDir, `${name}.map`))),
    } satisfies WidgetAssetEntry,
  });
  const manifest: WidgetManifest = {
    loader: LOADER_NAME,
    script,
    chunks,
    locales: Object.fromEntries(Object.entries(locales).map(([language, file]) => [language, file.name])),
    files: {
      ...Object.fromEntries(
        Object.values(locales).map(({ name, bytes }) => [
          name,
          { contentType: JSON_TYPE, cache: 'immutable', hash: hashOf(bytes) } satisfies WidgetAssetEntry,
        ]),
      ),
      [LOADER_NAME]: { contentType: JS, cache: 'short', hash: hashOf(loader.code) },
      [loaderMap]: { contentType: JSON_TYPE, cache: 'short', hash: hashOf(loader.map) },
      ...immutableScript(script),
      ...Object.assign({}, ...Object.values(chunks).map(immutableScript)),
    },
  };
  writeFileSync(path.join(distDir, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
