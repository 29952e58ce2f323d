import { z } from 'zod';
import { HttpError } from '../../ports/http-error.ts';

/**
 * What the misses read of a definition as written (a draft may have problems elsewhere): its
 * intents, FAQ pairs and language settings. Entries that do not have the shape are left out of
 * the suggestions rather than failing the page; `check` names them in the designer.
 */
const intent = z.object({
  id: z.string().min(1).max(64),
  dialog: z.string().optional(),
  utterances: z.array(z.string().min(1).max(500)).max(10_000),
});
const pair = z.object({ id: z.string().min(1).max(64), questions: z.array(z.string().min(1).max(500)).max(10_000) });
const settings = z.object({
  locale: z.string().max(35).catch('en').default('en'),
  // Absent (or unreadable): the bot runs with the threshold its classifier calibrates at load.
  nlpThreshold: z.number().min(0).max(1).optional().catch(undefined),
  synonyms: z
    .array(z.array(z.string().min(1).max(100)).min(2).max(20))
    .max(500)
    .catch([])
    .default([]),
});

export interface TeachableDefinition {
  readonly intents: readonly {
    readonly id: string;
    readonly dialog?: string | undefined;
    readonly utterances: readonly string[];
  }[];
  readonly faq: readonly { readonly id: string; readonly questions: readonly string[] }[];
  readonly settings: {
    readonly locale: string;
    readonly nlpThreshold?: number | undefined;
    readonly synonyms: readonly (readonly string[])[];
  };
}

const list = <T extends z.ZodType>(value: unknown, item: T): z.infer<T>[] =>
  Array.isArray(value)
    ? value.flatMap((v) => {
        const parsed = item.safeParse(v);
        return parsed.success ? [parsed.data as z.infer<T>] : [];
      })
    : [];

export function teachableOf(written: unknown): TeachableDefinition {
  const doc = (typeof written === 'object' && written !== null ? written : {}) as Record<string, unknown>;
  const parsed = settings.safeParse(doc.settings ?? {});
  return {
    intents: list(doc.intents, intent),
    faq: list(doc.faq, pair),
    settings: parsed.success ? parsed.data : { locale: 'en', synonyms: [] },
  };
}

export type TeachTarget = { readonly kind: 'intent' | 'faq'; readonly id: string };

/**
 * The definition with `texts` added to one intent's utterances or one FAQ pair's questions;
 * texts it already holds (ignoring case and spacing) are skipped. Throws 404 for a target the
 * definition lacks. Returns a new object; the one given is not changed.
 */
export function addPhrasings(
  written: unknown,
  target: TeachTarget,
  texts: readonly string[],
): { definition: unknown; added: string[]; skipped: string[] } {
  // A draft is saved as written, so it may be no object at all (null, a list): then it has no entry to add to.
  const doc = (
    typeof written === 'object' && written !== null && !Array.isArray(written) ? structuredClone(written) : {}
  ) as Record<string, unknown>;
  const key = target.kind === 'intent' ? 'intents' : 'faq';
  const field = target.kind === 'intent' ? 'utterances' : 'questions';
  const entries = Array.isArray(doc[key]) ? (doc[key] as unknown[]) : [];
  const entry = entries.find(
    (e): e is Record<string, unknown> =>
      typeof e === 'object' && e !== null && (e as { id?: unknown }).id === target.id,
  );
  if (!entry) {
    const what = target.kind === 'intent' ? 'intent' : 'FAQ pair';
    throw new HttpError(
      404,
      'not_found',
      `Your draft has no ${what} "${target.id}"; pick one from the list (it may have been renamed or removed in the designer).`,
      { path: 'target.id' },
    );
  }
  const current = Array.isArray(entry[field])
    ? (entry[field] as unknown[]).filter((t): t is string => typeof t === 'string')
    : [];
  const seen = new Set(current.map(phrasingKey));
  const added: string[] = [];
  const skipped: string[] = [];
  for (const raw of texts) {
    const text = raw.trim().replace(/\s+/g, ' ');
    if (seen.has(phrasingKey(text))) skipped.push(text);
    else {
      seen.add(phrasingKey(text));
      added.push(text);
    }
  }
  entry[field] = [...(Array.isArray(entry[field]) ? (entry[field] as unknown[]) : []), ...added];
  return { definition: doc, added, skipped };
}

/** Two phrasings are one when they differ only in case and spacing. */
export function phrasingKey(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}
