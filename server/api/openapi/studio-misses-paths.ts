/**
 * The misses part of the studio's insights API in the OpenAPI document: routes in
 * server/studio-server/http/misses-routes.ts.
 */
import { error, json, ref, studioErrors, studioOperation, dayParameter, type Obj } from './studio-openapi-parts.ts';

const common = studioErrors;
const date = dayParameter;
const count = { type: 'integer', minimum: 0 };
const scored = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['id', 'score'],
  properties: { id: { type: 'string' }, score: { type: 'number' } },
};
const logRead = {
  type: 'object',
  additionalProperties: false,
  required: ['rows', 'capped', 'readUpTo', 'distinct'],
  properties: {
    rows: count,
    capped: { type: 'boolean' },
    readUpTo: { type: ['integer', 'null'], description: 'Epoch ms of the last row read when capped.' },
    distinct: {
      ...count,
      description: 'Distinct inputs among the rows read; only the `groupedAtMost` most frequent are grouped.',
    },
  },
};

const taughtTo = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'id'],
  properties: { kind: { type: 'string', enum: ['intent', 'faq'] }, id: { type: 'string' } },
};

const operation = studioOperation('Studio: insights');

export function studioMissesPaths(): Obj {
  return {
    '/studio/api/insights/misses': {
      get: operation(
        'insightsMisses',
        'What the bot did not understand, grouped',
        'readMisses (owner, editor, analyst)',
        "The NLP log's unprocessed inputs and the FAQ log's unanswered questions in the range, grouped by likeness with the bot's own word vectors, typos read as the word they miss (sentence embeddings, when EMBEDDINGS is set, for the suggestions), most frequent first, each group with the intent and FAQ pair the models would pick. Read from each log up to a cap of rows (`read` says when a log had more: ask for fewer days). Owners and editors see their draft's intents, FAQ pairs and quality report (where an added input goes); analysts those of the newest version. Who wrote an input is not shown.",
        {
          parameters: [
            date('from', 'First UTC day included, YYYY-MM-DD; 29 days before `to` by default.'),
            date('to', 'Last UTC day included, YYYY-MM-DD; today by default.'),
          ],
          responses: {
            '200': json(ref('schemas/InsightsMisses'), 'The groups and the quality report.'),
            '400': error('invalid_parameter: a bad date, a range over 366 days or backwards, or an unknown parameter.'),
            ...common,
          },
        },
      ),
    },
    '/studio/api/insights/misses/add': {
      post: operation(
        'addMissesToDraft',
        'Add inputs to an intent or a FAQ pair of the draft',
        'editBot (owner, editor)',
        "Adds the texts to the utterances of one intent, or the questions of one FAQ pair, of the caller's draft (texts it already holds, ignoring case, are skipped), through the draft's autosave: refused with 409 draft_conflict when the draft changed since `revision`. Audited (how many, never the texts). The change goes through preview, tests and publish as any edit.",
        {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['target', 'texts', 'revision'],
                  properties: {
                    target: {
                      type: 'object',
                      additionalProperties: false,
                      required: ['kind', 'id'],
                      properties: {
                        kind: { type: 'string', enum: ['intent', 'faq'] },
                        id: { type: 'string', minLength: 1, maxLength: 64 },
                      },
                    },
                    texts: {
                      type: 'array',
                      minItems: 1,
                      maxItems: 50,
                      items: { type: 'string', minLength: 1, maxLength: 500 },
                    },
                    revision: {
                      type: 'integer',
                      minimum: 1,
                      description: 'The draft revision the misses were read with.',
                    },
                  },
                },
              },
            },
          },
          responses: {
            '200': json(
              {
                type: 'object',
                additionalProperties: false,
                required: ['revision', 'added', 'skipped'],
                properties: {
                  revision: { type: 'integer' },
                  added: { type: 'array', items: { type: 'string' } },
                  skipped: { type: 'array', items: { type: 'string' } },
                },
              },
              "The draft's new revision, what was added and what it already held.",
            ),
            '400': error('invalid_body: a missing or unknown field, no texts or too many, a text over 500 characters.'),
            '404': error('not_found: the draft has no such intent or FAQ pair.'),
            '409': error(
              'draft_conflict: the draft changed since `revision` (the designer in another tab); read the misses again.',
            ),
            '413': error('payload_too_large: the body is over 16 KiB.'),
            '415': error('unsupported_media_type: the body is not JSON.'),
            ...common,
          },
        },
      ),
    },
  };
}

export function studioMissesSchemas(): Obj {
  const group = {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'count', 'distinct', 'examples', 'suggestion', 'taught'],
    properties: {
      id: { type: 'string' },
      count,
      distinct: count,
      examples: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['text', 'count', 'taught'],
          properties: {
            text: { type: 'string' },
            count,
            taught: {
              ...taughtTo,
              type: ['object', 'null'],
              description: 'The intent or FAQ pair that already holds this input (ignoring case and spacing), or null.',
            },
          },
        },
      },
      suggestion: {
        type: 'object',
        additionalProperties: false,
        required: ['intent', 'faq'],
        description:
          "The intent and FAQ pair the models would pick for the group's most frequent input; null where there is no evidence (a score of 0).",
        properties: { intent: scored, faq: scored },
      },
      taught: {
        type: 'object',
        additionalProperties: false,
        required: ['all', 'to'],
        description: "Where the definition already holds the group's inputs; groups it holds all of are listed last.",
        properties: { all: { type: 'boolean' }, to: { type: 'array', items: taughtTo } },
      },
    },
  };
  return {
    InsightsMisses: {
      type: 'object',
      additionalProperties: false,
      required: ['from', 'to', 'source', 'canAdd', 'unprocessed', 'faqMisses', 'read', 'intents', 'faq', 'quality'],
      properties: {
        from: { type: 'string' },
        to: { type: 'string' },
        source: {
          description:
            "What the intents, FAQ pairs, suggestions and quality report are of: the caller's draft (owners, editors) or the newest version.",
          oneOf: [
            {
              type: 'object',
              additionalProperties: false,
              required: ['kind', 'revision', 'baseVersionId'],
              properties: {
                kind: { const: 'draft' },
                revision: { type: 'integer' },
                baseVersionId: { type: ['string', 'null'] },
              },
            },
            {
              type: 'object',
              additionalProperties: false,
              required: ['kind', 'versionId'],
              properties: { kind: { const: 'version' }, versionId: { type: ['string', 'null'] } },
            },
          ],
        },
        canAdd: { type: 'boolean', description: 'Whether the caller may add inputs to the draft (owners, editors).' },
        unprocessed: { type: 'array', items: group },
        faqMisses: { type: 'array', items: group },
        read: {
          type: 'object',
          additionalProperties: false,
          required: ['nlpLog', 'fuzzyQuestionAnswerLog', 'cap', 'groupedAtMost'],
          properties: { nlpLog: logRead, fuzzyQuestionAnswerLog: logRead, cap: count, groupedAtMost: count },
        },
        intents: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'utterances'],
            properties: { id: { type: 'string' }, utterances: count },
          },
        },
        faq: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'question'],
            properties: { id: { type: 'string' }, question: { type: 'string' } },
          },
        },
        quality: {
          type: 'object',
          additionalProperties: true,
          description:
            'reportIntentQuality of the definition: accuracy, the threshold the bot runs with and its source (definition or calibrated), suggestedThreshold (the one calibrated at load) with atSuggested and calibrated (expected rates), confusable pairs, thinIntents, findings (sentences).',
        },
      },
    },
  };
}
