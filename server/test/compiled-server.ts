import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { build, version as esbuildVersion, type Plugin } from 'esbuild';
import { projectRoot } from '../paths.ts';

/**
 * The server as production runs it (`node dist/server/main.js`): every module of
 * server/, shared/ and demo/ compiled to plain JavaScript, one file per module, the
 * packages left to node_modules. Tests that run the server as a process of its own
 * (crash and cluster tests, the cluster bench) start this rather than the sources
 * through tsx, which compiles the whole server on every start (seconds of CPU per
 * restart on a loaded machine), so a restart costs what it costs in production.
 *
 * The build step of `npm test` runs after the Node tests, so the tests cannot take
 * dist/: esbuild compiles the same files as tsconfig.build.json (well under a second)
 * into .cache/server-build/<hash of the sources>/. The folder is inside the project,
 * so the server finds package.json, node_modules, demo/ and dist/ above it, as
 * from dist/server. A folder of the same sources is reused by the next test file.
 */
export function compiledServerMain(): Promise<string> {
  built ??= compile();
  return built;
}
let built: Promise<string> | undefined;

/**
 * Any entry of server/, shared/ or demo/ from the same build: `compiledEntry('server/cli/main.ts')`
 * is the CLI as `npx chatbot` runs it. Tests that start an entry as a process of its own take
 * this rather than tsx, for the reason above (a tsx start compiles the server again, 2 to 4 s
 * of CPU each, dozens of times per file).
 */
export async function compiledEntry(entry: string): Promise<string> {
  const main = await compiledServerMain();
  const out = path.dirname(path.dirname(main));
  const compiled = path.join(out, entry.replace(/\.ts$/, '.js'));
  if (!existsSync(compiled))
    throw new Error(`${entry} is not in the compiled build (only server/, shared/ and demo/ are, without tests)`);
  return compiled;
}

/** The folders tsconfig.build.json compiles, without tests. */
const SOURCE_FOLDERS = ['server', 'shared', 'demo'];
/** Bumped when the options below change, so a build made with the old ones is not reused. */
const BUILD_OPTIONS_VERSION = 2;
/** Builds of other sources are removed once this old, so edits do not pile folders up. */
const STALE_MS = 6 * 60 * 60 * 1000;

async function compile(): Promise<string> {
  const root = projectRoot();
  const sources = SOURCE_FOLDERS.flatMap((folder) =>
    readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
      .map((file) => path.join(folder, file))
      .filter((file) => /\.ts$/.test(file) && !/\.test\.ts$/.test(file) && !file.split(path.sep).includes('test')),
  ).sort();
  const hash = createHash('sha256')
    .update(`esbuild ${esbuildVersion} ${BUILD_OPTIONS_VERSION}\n`)
    .update(readFileSync(path.join(root, 'tsconfig.json')));
  for (const file of sources) hash.update(`\n${file}\n`).update(readFileSync(path.join(root, file)));
  const builds = path.join(root, '.cache', 'server-build');
  const out = path.join(builds, hash.digest('hex').slice(0, 16));
  const main = path.join(out, 'server', 'main.js');
  if (existsSync(main)) return main;

  await mkdir(builds, { recursive: true });
  // Built beside its final place and renamed there whole, so a test file running in parallel never starts a half-written one.
  const scratch = await mkdtemp(path.join(builds, 'partial-'));
  try {
    await build({
      absWorkingDir: root,
      entryPoints: sources,
      outdir: scratch,
      outbase: root,
      // Each module stays a file of its own (as tsc emits them); bundling only lets the plugin rewrite the imports.
      bundle: true,
      packages: 'external',
      plugins: [keepModulesApart],
      platform: 'node',
      format: 'esm',
      // The syntax as written, as tsc keeps it (esbuild's node20 target would drop the JSON imports' `with { type: 'json' }`, which Node 20 needs).
      target: 'esnext',
      sourcemap: true,
      logLevel: 'error',
    });
    await rename(scratch, out).catch(async (error: NodeJS.ErrnoException) => {
      // Another test file finished the same build first: theirs is as good.
      if (!existsSync(main)) throw error;
      await rm(scratch, { recursive: true, force: true });
    });
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
  await removeStale(builds, out);
  return main;
}

/** Relative imports stay imports of the sibling module, with the extension tsc's rewriteRelativeImportExtensions gives them. */
const keepModulesApart: Plugin = {
  name: 'keep-modules-apart',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\.?\// }, ({ path: specifier, kind }) =>
      kind === 'entry-point' ? undefined : { path: specifier.replace(/\.ts$/, '.js'), external: true },
    );
  },
};

async function removeStale(builds: string, keep: string): Promise<void> {
  for (const name of await readdir(builds)) {
    const folder = path.join(builds, name);
    if (folder === keep) continue;
    const { mtimeMs } = await stat(folder).catch(() => ({ mtimeMs: Date.now() }));
    if (Date.now() - mtimeMs > STALE_MS) await rm(folder, { recursive: true, force: true });
  }
}
