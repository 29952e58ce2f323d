/** What GET /studio/api/insights/misses answers (server/studio/http/misses-routes.ts; the OpenAPI document has it too). */
export interface MissGroup {
  readonly id: string;
  readonly count: number;
  readonly distinct: number;
  readonly examples: readonly { readonly text: string; readonly count: number }[];
  readonly suggestion: { readonly intent: { id: string; score: number } | null; readonly faq: { id: string; score: number } | null };
}

export interface LogRead {
  readonly rows: number;
  readonly capped: boolean;
  readonly readUpTo: number | null;
  readonly distinct: number;
}

export interface Misses {
  readonly from: string;
  readonly to: string;
  readonly source: { readonly kind: 'draft'; readonly revision: number; readonly baseVersionId: string | null } | { readonly kind: 'version'; readonly versionId: string | null };
  readonly canAdd: boolean;
  readonly unprocessed: readonly MissGroup[];
  readonly faqMisses: readonly MissGroup[];
  readonly read: { readonly nlpLog: LogRead; readonly fuzzyQuestionAnswerLog: LogRead; readonly cap: number; readonly groupedAtMost: number };
  readonly intents: readonly { readonly id: string; readonly utterances: number }[];
  readonly faq: readonly { readonly id: string; readonly question: string }[];
  readonly quality: {
    readonly accuracy: number | null;
    readonly accuracyAtThreshold: number | null;
    readonly threshold: number;
    readonly suggestedThreshold: number | null;
    readonly thinIntents: readonly string[];
    readonly confusable: readonly { readonly intents: readonly [string, string]; readonly count: number }[];
  };
}
