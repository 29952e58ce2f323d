import { z } from 'zod';
import type { ReadonlyDeep } from './studio-versions.ts';

/**
 * What the studio's misses API answers (server/studio-server/http/misses-routes.ts), as zod
 * schemas: the server checks its answers against them in test and development, the OpenAPI
 * document describes them from them, and the server (server/studio-server/insights/) and the
 * studio's Misses view (studio/insights/misses-view.ts) use the types inferred from them. The web
 * app imports the types only.
 */

const count = z.int().min(0);

/** An intent or FAQ pair of the definition, by id. */
const taughtTo = z.strictObject({ kind: z.enum(['intent', 'faq']), id: z.string() });
export type TaughtTo = ReadonlyDeep<z.infer<typeof taughtTo>>;

/** A distinct input and how often it was seen (repeats that differ in case and spacing are one). */
const textCount = { text: z.string(), count };
export type TextCount = ReadonlyDeep<z.infer<z.ZodObject<typeof textCount>>>;

const scored = z.strictObject({ id: z.string(), score: z.number() });
export type Scored = ReadonlyDeep<z.infer<typeof scored>>;

const missGroup = z.strictObject({
  id: z.string().meta({ description: 'Stable for the same first text: the page keys its rows by it.' }),
  count: count.meta({ description: 'Every input in the group, repeats included.' }),
  distinct: count.meta({ description: 'Distinct inputs in the group.' }),
  examples: z.array(
    z.strictObject({
      ...textCount,
      taught: taughtTo.nullable().meta({
        description: 'The intent or FAQ pair that already holds this input (ignoring case and spacing), or null.',
      }),
    }),
  ),
  suggestion: z.strictObject({ intent: scored.nullable(), faq: scored.nullable() }).meta({
    description:
      "The intent and FAQ pair the models would pick for the group's most frequent input; null where there is no evidence (a score of 0).",
  }),
  taught: z.strictObject({ all: z.boolean(), to: z.array(taughtTo) }).meta({
    description: "Where the definition already holds the group's inputs; groups it holds all of are listed last.",
  }),
});
export type MissGroup = ReadonlyDeep<z.infer<typeof missGroup>>;

const logRead = z.strictObject({
  rows: count.meta({ description: 'Rows read.' }),
  capped: z.boolean().meta({ description: 'The log had more rows in the range than were read.' }),
  readUpTo: z
    .int()
    .nullable()
    .meta({ description: 'Epoch ms of the last row read when capped: the misses cover the range up to it.' }),
  distinct: count.meta({
    description: 'Distinct inputs among the rows read; only the `groupedAtMost` most frequent are grouped.',
  }),
});
export type LogRead = ReadonlyDeep<z.infer<typeof logRead>>;

/**
 * The part of an object the page reads, where the answer holds more (the intent quality report):
 * the object strips rather than refuses other fields, and the document says they may be there.
 */
const partOf = <Shape extends z.ZodRawShape>(shape: Shape) => z.object(shape).meta({ additionalProperties: true });

/** The part of the intent quality report (server/nlp/quality.ts) the page reads. */
const missesQuality = partOf({
  accuracy: z.number().nullable(),
  accuracyAtThreshold: z.number().nullable(),
  threshold: z.number().meta({
    description: 'The threshold the bot runs with: the definition’s nlpThreshold, else the calibrated one.',
  }),
  thresholdSource: z.enum(['definition', 'calibrated']),
  suggestedThreshold: z.number().nullable().meta({
    description: 'The threshold the classifier calibrates for the bot at load (null: too little to cross-validate).',
  }),
  atSuggested: partOf({ routedRight: z.number(), outOfScopeRecall: z.number() }).nullable().meta({
    description:
      'Cross-validated at the calibrated threshold: in-scope texts routed right, out-of-scope texts turned away.',
  }),
  thinIntents: z.array(z.string()),
  confusable: z.array(
    partOf({
      // Documented as two texts in an array: schemathesis refuses a tuple's prefixItems in a response schema.
      intents: z.tuple([z.string(), z.string()]).meta({ prefixItems: undefined, items: { type: 'string' } }),
      count,
    }),
  ),
}).meta({
  description:
    'reportIntentQuality of the definition: accuracy, the threshold the bot runs with and its source (definition or calibrated), suggestedThreshold (the one calibrated at load) with atSuggested and calibrated (expected rates), confusable pairs, thinIntents, findings (sentences).',
});
export type MissesQuality = ReadonlyDeep<z.infer<typeof missesQuality>>;

/** The groups, what was read, the definition's entries to add to, and its quality report. */
const missesReport = {
  unprocessed: z.array(missGroup),
  faqMisses: z.array(missGroup),
  read: z.strictObject({
    nlpLog: logRead,
    fuzzyQuestionAnswerLog: logRead,
    cap: count,
    groupedAtMost: count,
  }),
  intents: z.array(z.strictObject({ id: z.string(), utterances: count })),
  faq: z.array(z.strictObject({ id: z.string(), question: z.string() })),
  quality: missesQuality,
};
/** The report's shape, with the quality report the server holds (all of it) or the part the page reads. */
export type MissesReportShape<Quality extends MissesQuality = MissesQuality> = Omit<
  ReadonlyDeep<z.infer<z.ZodObject<typeof missesReport>>>,
  'quality'
> & { readonly quality: Quality };

/** GET /studio/api/insights/misses. */
export const misses = z
  .strictObject({
    from: z.string(),
    to: z.string(),
    source: z
      .discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('draft'), revision: z.int(), baseVersionId: z.string().nullable() }),
        z.strictObject({ kind: z.literal('version'), versionId: z.string().nullable() }),
      ])
      .meta({
        description:
          "What the intents, FAQ pairs, suggestions and quality report are of: the caller's draft (owners, editors) or the newest version.",
      }),
    canAdd: z.boolean().meta({ description: 'Whether the caller may add inputs to the draft (owners, editors).' }),
    ...missesReport,
  })
  .meta({ id: 'InsightsMisses' });
export type Misses = ReadonlyDeep<z.infer<typeof misses>>;

/** POST /studio/api/insights/misses/add. */
export const missesAdded = z.strictObject({
  revision: z.int(),
  added: z.array(z.string()),
  skipped: z
    .array(z.string())
    .meta({ description: 'Texts the entry already held (ignoring case and spacing): not added again.' }),
});
export type MissesAdded = ReadonlyDeep<z.infer<typeof missesAdded>>;
