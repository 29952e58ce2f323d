/**
 * The insights part of the studio's API in the OpenAPI document, in words: routes in
 * server/studio-server/http/insights-routes.ts and misses-routes.ts, and the studio's door to the
 * management API's exports. Paths, parameters, bodies and answers come from the map
 * (studio-map-operations.ts). Personal data: owners and analysts only (the misses, without who
 * wrote them, editors too).
 */
import type { StudioRouteName } from '../../../shared/studio-routes.ts';
import { EXPORT_NAMES } from '../../app/export-records.ts';
import { error, ref } from './operation-parts.ts';
import { type OperationWords } from './studio-openapi-parts.ts';

const tag = 'Studio: insights';
const read = 'readConversations (owner, analyst)';
const badRange = error(
  'invalid_parameter: a bad date, a range over 366 days or backwards, a bad version id, cursor or limit, or an unknown parameter.',
);

export const insightsWords = {
  insightsDashboard: {
    tag,
    role: read,
    summary: 'The dashboard over a range of days',
    description:
      "Conversations started, active users and messages per UTC day; each dialog's conversations that entered it and that completed it (an end step, past its last step, or one of its own steps jumping to another dialog); the top 20 unprocessed inputs and FAQ misses; FAQ answered and missed; integration calls by status class with p50 and p95 latency (from buckets, within about 12 %); link clicks by domain; emails and SMS sent. Read from counters kept with each turn; preview users count nowhere. `version`: one published version (as the versions list names it); every version when absent.",
    answer: 'The figures.',
    errors: { '400': badRange },
  },
  insightsDropOff: {
    tag,
    role: read,
    summary: 'Reach and drop-off per step of one version',
    description:
      'For each step of the version, in definition order: conversations (started in the range) that reached it, and those whose last step it was and that are over (no turn for INSIGHTS_WINDOW). Conversations still going are counted in `open`, not as stopped. `version`: the published version; the one in service when absent.',
    answer: 'The figures.',
    errors: { '400': badRange, '404': error('not_found: no such version.') },
  },
  searchConversations: {
    tag,
    role: read,
    summary: 'Search conversations',
    description:
      "Conversations that started in the range, newest first, matching every filter given. Page with `cursor` = the previous page's nextCursor.",
    answer: 'The page.',
    errors: { '400': badRange },
  },
  readUserTranscript: {
    tag,
    role: read,
    summary: "One user's transcript",
    description:
      "The user's messages, 200 a page, each with the dialog and step it came from (a user's: the step it answered) and the integration calls made after it (secrets redacted); the user's data and, on the first page, their conversations. Page with `afterSeq` = the previous page's nextAfterSeq.",
    answer: 'The page.',
    errors: { '400': badRange, '404': error('not_found: no such user (erased, or never wrote).') },
  },
  eraseUserFromStudio: {
    tag,
    role: 'eraseUsers (owner)',
    summary: 'Erase a user',
    description:
      'Erases everything held about the user, as DELETE /api/management/users/{userId} does; the audit trail records it with a digest of the id.',
    answer: 'Erased.',
  },
  insightsMisses: {
    tag,
    role: 'readMisses (owner, editor, analyst)',
    summary: 'What the bot did not understand, grouped',
    description:
      "The NLP log's unprocessed inputs and the FAQ log's unanswered questions in the range, grouped by likeness with the bot's own word vectors, typos read as the word they miss (sentence embeddings, when EMBEDDINGS is set, for the suggestions), most frequent first, each group with the intent and FAQ pair the models would pick. Read from each log up to a cap of rows (`read` says when a log had more: ask for fewer days). Owners and editors see their draft's intents, FAQ pairs and quality report (where an added input goes); analysts those of the newest version. Who wrote an input is not shown.",
    answer: 'The groups and the quality report.',
    errors: {
      '400': error('invalid_parameter: a bad date, a range over 366 days or backwards, or an unknown parameter.'),
    },
  },
  addMissesToDraft: {
    tag,
    role: 'editBot (owner, editor)',
    summary: 'Add inputs to an intent or a FAQ pair of the draft',
    description:
      "Adds the texts to the utterances of one intent, or the questions of one FAQ pair, of the caller's draft (texts it already holds, ignoring case, are skipped), through the draft's autosave: refused with 409 draft_conflict when the draft changed since `revision` (the draft revision the misses were read with). Audited (how many, never the texts). The change goes through preview, tests and publish as any edit.",
    answer: "The draft's new revision, what was added and what it already held.",
    errors: {
      '400': error('invalid_body: a missing or unknown field, no texts or too many, a text over 500 characters.'),
      '404': error('not_found: the draft has no such intent or FAQ pair.'),
      '409': error(
        'draft_conflict: the draft changed since `revision` (the designer in another tab); read the misses again.',
      ),
      '413': error('payload_too_large: the body is over 16 KiB.'),
      '415': error('unsupported_media_type: the body is not JSON.'),
    },
  },
  downloadExportFromStudio: {
    tag,
    role: read,
    summary: 'Download an export',
    description:
      "The exports of GET /api/management/export/{name} (the spec's eight and the transcript), with the same query parameters (time range, paging, format, BOM, CSV formula guard, and the where/notEmpty filters of the user-data exports), for a signed-in owner or analyst. Preview users are in none.",
    answer: 'The records, sorted by time.',
    parameters: [
      { name: 'name', in: 'path', required: true, schema: { type: 'string', enum: [...EXPORT_NAMES] } },
      ...['fromTimestamp', 'toTimestamp', 'limit', 'cursor', 'format', 'bom', 'csvFormulaGuard'].map((name) =>
        ref(`parameters/${name}`),
      ),
    ],
    responses: {
      '200': {
        description: 'The records, sorted by time.',
        content: {
          'application/json': { schema: { type: 'array', items: { type: 'object', additionalProperties: true } } },
          'application/x-ndjson': { schema: { type: 'string', description: 'One record a line.' } },
          'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV with a header row.' } },
        },
      },
    },
    errors: { '400': badRange, '404': error('not_found: no export of that name.') },
  },
} as const satisfies { readonly [N in StudioRouteName]?: OperationWords };
