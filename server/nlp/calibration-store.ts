import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Calibration } from './calibration.ts';
import type { IntentCalibrations } from './intent-calibration.ts';
import type { EmbeddingProvider } from '../ports/embeddings.ts';
import { cacheHomeOf } from './embeddings/embedding-cache.ts';

/**
 * A bot's intent calibration kept in a file, so a restart with an encoder does not run the four
 * cross-validation trainings again (they are most of a warm start's CPU). The key is the SHA-256
 * of everything the calibration is a function of: the recipe (`CALIBRATION_RECIPE`), the locale,
 * the utterances with their intents, the off-topic sentences and every embedding it read. The
 * embeddings stand for the model: another model, or the same name serving other weights, gives
 * other vectors and so another key. Files live in `<DATA_DIR>/calibrations/<key>.json`, beside
 * the embedding cache; the most recent few are kept.
 */
export interface CalibrationStore {
  read(key: string): IntentCalibrations | undefined;
  write(key: string, calibrations: IntentCalibrations): void;
}

const expectedSchema = z.object({
  topOne: z.number(),
  inScopeRouted: z.number(),
  heldOutRefused: z.number().nullable(),
  backgroundRefused: z.number(),
});
const calibrationSchema: z.ZodType<Calibration> = z.object({
  threshold: z.number(),
  slope: z.number(),
  intercept: z.number(),
  expected: expectedSchema.nullable(),
});
const calibrationsSchema: z.ZodType<IntentCalibrations> = z.object({
  words: calibrationSchema,
  embedded: calibrationSchema.optional(),
});

/** Files kept: one per definition version a server recently started with. */
const KEPT = 32;

export function calibrationFiles(dataDir: string, warn?: (message: string) => void): CalibrationStore {
  const dir = path.join(dataDir, 'calibrations');
  const file = (key: string): string => path.join(dir, `${key}.json`);
  return {
    read(key) {
      try {
        return calibrationsSchema.parse(JSON.parse(readFileSync(file(key), 'utf8')));
      } catch (error) {
        // Absent is the usual case (a new definition); anything else is rewritten after calibrating.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
          warn?.(`the calibration file ${file(key)} is unreadable (${(error as Error).message}); calibrating again`);
        return undefined;
      }
    },
    write(key, calibrations) {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const temporary = `${file(key)}.${process.pid}.tmp`;
        writeFileSync(temporary, JSON.stringify(calibrations), { mode: 0o600 });
        renameSync(temporary, file(key));
        const old = readdirSync(dir)
          .filter((name) => name.endsWith('.json'))
          .map((name) => ({ name, time: statSync(path.join(dir, name)).mtimeMs }))
          .sort((a, b) => b.time - a.time)
          .slice(KEPT);
        for (const { name } of old) unlinkSync(path.join(dir, name));
      } catch (error) {
        warn?.(
          `the calibration could not be kept in ${dir} (${(error as Error).message}); the next start calibrates again`,
        );
      }
    },
  };
}

/** The key of a calibration: a digest of the JSON-able parts, then of each embedding's bytes. */
export function calibrationKey(parts: unknown, vectors: readonly (readonly Float32Array[])[]): string {
  const hash = createHash('sha256').update(JSON.stringify(parts));
  for (const list of vectors) for (const v of list) hash.update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  return hash.digest('hex');
}

/** One store for each cache home, so its pruning runs in one place. */
const stores = new WeakMap<object, CalibrationStore>();

/** Where calibrations computed from a provider's embeddings are kept: beside its cache; none for a provider without one. */
export function calibrationStoreOf(provider: EmbeddingProvider): CalibrationStore | undefined {
  const home = cacheHomeOf(provider);
  if (!home) return undefined;
  let store = stores.get(home);
  if (!store) stores.set(home, (store = calibrationFiles(home.dir, home.warn)));
  return store;
}
