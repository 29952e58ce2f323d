import type { EmbeddingProvider } from '../../ports/embeddings.ts';
import type { LogKind, Store } from '../../ports/store.ts';
import { backgroundFor } from '../../nlp/background-corpus.ts';
import { reportIntentQuality, type IntentQualityReport } from '../../nlp/quality.ts';
import type { LogRead, MissesReportShape } from '../../../shared/studio-misses.ts';
import { groupMisses, MAX_DISTINCT, modelsOf, type TextCount } from './miss-groups.ts';
import type { TeachableDefinition } from './teachable.ts';

/**
 * The misses: the NLP log's unprocessed inputs and the FAQ log's unanswered questions over a
 * range, grouped by likeness (miss-groups.ts), with the intent quality report of the definition
 * being edited. Bounded work: each log is read in batches up to ROW_CAP rows, oldest first from
 * the range's start; when a log has more, `capped` says so and the page tells the reader to ask
 * for fewer days. Preview users (none write log rows; earlier rows are left out as the exports do)
 * appear nowhere.
 */

/** Log rows read per log, at most. */
export const ROW_CAP = 20_000;
const BATCH = 1_000;
/** A text longer than an utterance may be is cut: it could not be added as it is anyway. */
const TEXT_MAX = 500;

/** The report: the shared shape (shared/studio-misses.ts) with the whole quality report. */
export type MissesReport = MissesReportShape<IntentQualityReport>;

export interface MissesDeps {
  readonly store: Store;
  readonly embeddings?: EmbeddingProvider | undefined;
  /** Rows read per log; ROW_CAP unless the operator asks for fewer (INSIGHTS_MISSES_ROWS). */
  readonly rowCap?: number;
  /** Distinct inputs grouped per log; MAX_DISTINCT unless the operator asks otherwise (INSIGHTS_MISSES_GROUPED). */
  readonly groupedAtMost?: number;
}

/** Reads one log's misses in the range: distinct texts with counts, and how much was read. */
async function readMisses(
  deps: MissesDeps,
  kind: LogKind,
  range: { fromMs: number; toMs: number },
  previews: ReadonlySet<string>,
  textOf: (data: Readonly<Record<string, unknown>>) => unknown,
): Promise<{ texts: TextCount[]; read: LogRead }> {
  const cap = deps.rowCap ?? ROW_CAP;
  const counts = new Map<string, TextCount>();
  let rows = 0;
  let last: number | null = null;
  let capped = false;
  outer: for await (const batch of deps.store
    .readLogs(kind, { ...range, batchSize: Math.min(BATCH, cap + 1) })
    .batches()) {
    for (const row of batch) {
      if (rows >= cap) {
        capped = true;
        break outer;
      }
      rows++;
      last = row.timestamp;
      if (previews.has(row.userId)) continue;
      const raw = textOf(row.data);
      if (typeof raw !== 'string') continue;
      const text = raw.trim().replace(/\s+/g, ' ').slice(0, TEXT_MAX);
      if (!text) continue;
      // One group key per text whatever its case: "Where is my parcel" and "where is my parcel" are one input.
      const key = text.toLowerCase();
      const seen = counts.get(key);
      counts.set(key, { text: seen?.text ?? text, count: (seen?.count ?? 0) + 1 });
    }
  }
  return { texts: [...counts.values()], read: { rows, capped, readUpTo: capped ? last : null, distinct: counts.size } };
}

export async function missesReport(
  deps: MissesDeps,
  range: { fromMs: number; toMs: number },
  definition: TeachableDefinition,
): Promise<MissesReport> {
  const previews = new Set(await deps.store.previewUsers());
  const nlp = await readMisses(deps, 'nlpLog', range, previews, (data) => (data.processed ? undefined : data.query));
  const faqLog = await readMisses(deps, 'fuzzyQuestionAnswerLog', range, previews, (data) =>
    data.matched ? undefined : data.text,
  );
  const models = await modelsOf(definition, deps.embeddings);
  const grouped = deps.groupedAtMost ?? MAX_DISTINCT;
  return {
    unprocessed: await groupMisses(nlp.texts, definition, { models, maxDistinct: grouped }),
    faqMisses: await groupMisses(faqLog.texts, definition, { models, maxDistinct: grouped }),
    read: {
      nlpLog: nlp.read,
      fuzzyQuestionAnswerLog: faqLog.read,
      cap: deps.rowCap ?? ROW_CAP,
      groupedAtMost: grouped,
    },
    intents: definition.intents.map((i) => ({ id: i.id, utterances: i.utterances.length })),
    faq: definition.faq.map((p) => ({ id: p.id, question: p.questions[0] ?? '' })),
    quality: await qualityOf(definition, deps.embeddings),
  };
}

/** reportIntentQuality on the definition, with its utterances' embeddings when the bot runs with them. */
async function qualityOf(
  definition: TeachableDefinition,
  embeddings: EmbeddingProvider | undefined,
): Promise<IntentQualityReport> {
  const input = {
    intents: definition.intents.map((i) => ({ id: i.id, dialog: i.dialog ?? '', utterances: [...i.utterances] })),
    settings: definition.settings,
  };
  if (embeddings) {
    // The locale's off-topic sentences too: the report calibrates as the classifier does at load.
    const texts = [
      ...new Set([
        ...definition.intents.flatMap((i) => i.utterances).slice(0, 3_000),
        ...backgroundFor(definition.settings.locale),
      ]),
    ];
    try {
      const vectors = texts.length > 0 ? await embeddings.embed(texts, 'batch') : [];
      return reportIntentQuality(input, { embeddings: new Map(texts.map((t, i) => [t, vectors[i]!])) });
    } catch {
      // Words alone, as the classifier falls back.
    }
  }
  return reportIntentQuality(input);
}
