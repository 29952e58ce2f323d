/**
 * What the studio's misses API answers (server/studio-server/http/misses-routes.ts): one definition here,
 * imported by the server (server/studio-server/insights/) and by the studio's Misses view
 * (studio/insights/misses-view.ts), so the two cannot drift apart. Types only; the OpenAPI
 * document describes the same (server/api/openapi/studio-misses-paths.ts).
 */

/** An intent or FAQ pair of the definition, by id. */
export interface TaughtTo {
  readonly kind: 'intent' | 'faq';
  readonly id: string;
}

/** A distinct input and how often it was seen (repeats that differ in case and spacing are one). */
export interface TextCount {
  readonly text: string;
  readonly count: number;
}

export interface Scored {
  readonly id: string;
  readonly score: number;
}

export interface MissGroup {
  /** Stable for the same first text: the page keys its rows by it. */
  readonly id: string;
  /** Every input in the group, repeats included. */
  readonly count: number;
  /** Distinct inputs in the group. */
  readonly distinct: number;
  /** Each with where the definition already holds it (an intent's utterance, a FAQ pair's question), if it does. */
  readonly examples: readonly (TextCount & { readonly taught: TaughtTo | null })[];
  /** What the models would make of the group's most frequent input; null where they have no evidence (a score of 0). */
  readonly suggestion: { readonly intent: Scored | null; readonly faq: Scored | null };
  /** Where the group's inputs are taught already, and whether all are (then the group is listed last). */
  readonly taught: { readonly all: boolean; readonly to: readonly TaughtTo[] };
}

export interface LogRead {
  /** Rows read. */
  readonly rows: number;
  /** The log had more rows in the range than were read. */
  readonly capped: boolean;
  /** Time of the last row read when capped: the misses cover the range up to it. */
  readonly readUpTo: number | null;
  /** Distinct inputs among the rows read (only the `groupedAtMost` most frequent are grouped). */
  readonly distinct: number;
}

/** The part of the intent quality report (server/nlp/quality.ts) the page reads; the answer holds more. */
export interface MissesQuality {
  readonly accuracy: number | null;
  readonly accuracyAtThreshold: number | null;
  /** The threshold the bot runs with: the definition's nlpThreshold, else the calibrated one. */
  readonly threshold: number;
  readonly thresholdSource: 'definition' | 'calibrated';
  /** The threshold the classifier calibrates for the bot at load (null: too little to cross-validate). */
  readonly suggestedThreshold: number | null;
  /** Cross-validated at the calibrated threshold: in-scope texts routed right, out-of-scope texts turned away. */
  readonly atSuggested: { readonly routedRight: number; readonly outOfScopeRecall: number } | null;
  readonly thinIntents: readonly string[];
  readonly confusable: readonly { readonly intents: readonly [string, string]; readonly count: number }[];
}

/** The groups, what was read, the definition's entries to add to, and its quality report. */
export interface MissesReportShape<Quality extends MissesQuality = MissesQuality> {
  readonly unprocessed: readonly MissGroup[];
  readonly faqMisses: readonly MissGroup[];
  readonly read: {
    readonly nlpLog: LogRead;
    readonly fuzzyQuestionAnswerLog: LogRead;
    readonly cap: number;
    readonly groupedAtMost: number;
  };
  readonly intents: readonly { readonly id: string; readonly utterances: number }[];
  readonly faq: readonly { readonly id: string; readonly question: string }[];
  readonly quality: Quality;
}

/** GET /studio/api/insights/misses. */
export interface Misses extends MissesReportShape {
  readonly from: string;
  readonly to: string;
  /** What the entries, suggestions and quality report are of: the caller's draft (owners, editors) or the newest version. */
  readonly source:
    | { readonly kind: 'draft'; readonly revision: number; readonly baseVersionId: string | null }
    | { readonly kind: 'version'; readonly versionId: string | null };
  readonly canAdd: boolean;
}

/** POST /studio/api/insights/misses/add. */
export interface MissesAdded {
  readonly revision: number;
  readonly added: readonly string[];
  /** Texts the entry already held (ignoring case and spacing): not added again. */
  readonly skipped: readonly string[];
}
