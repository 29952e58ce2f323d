/**
 * The versions part of the studio's API in the OpenAPI document: routes in
 * server/studio-server/http/versions-routes.ts. Every operation needs a studio session (cookie, with the
 * CSRF header on writes) or an account's API token; the role each needs is named.
 */
import { error, json, ref, studioErrors, studioOperation, type Obj } from './studio-openapi-parts.ts';

const versionIdPattern = '^v[1-9][0-9]{0,9}$';

export const STUDIO_VERSIONS_ERROR_CODES = [
  'version_not_found',
  'version_conflict',
  'draft_conflict',
  'definition_invalid',
  'invalid_definition',
  'invalid_move',
  'already_live',
  'publish_failed',
  'tests_failed',
] as const;

const common = studioErrors;
const bodyErrors = {
  '400': error(
    'invalid_body: not JSON, not the fields listed, or a definition nested deeper than 32 levels or holding more than 500,000 values.',
  ),
  '413': error('payload_too_large: over 5 MB (and a little for the fields around the definition).'),
  '415': error('unsupported_media_type: not Content-Type application/json, or compressed.'),
};
const notFound = { '404': error('version_not_found: no such version.') };

const definition = {
  description:
    'A bot definition as written (docs/bot-definition.md): any JSON, valid or not; at most 5 MB and 32 levels deep. The checks say what is wrong with it.',
};
const stepRef: Obj = {
  type: 'object',
  additionalProperties: false,
  required: ['dialogId', 'stepId'],
  properties: {
    dialogId: { type: 'string', minLength: 1, maxLength: 64 },
    stepId: { type: 'string', minLength: 1, maxLength: 64 },
  },
};
const versionIdParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'A version id, e.g. v12.',
  schema: { type: 'string', pattern: versionIdPattern },
};

const operation = studioOperation('Studio: versions');

export function studioVersionsPaths(): Obj {
  return {
    '/studio/api/versions': {
      get: operation(
        'listVersions',
        'The versions, newest first',
        'any (owner, editor, analyst, viewer)',
        "Each version with its author, time, message, content hash, source and when it was last published; with the published and the newest (head) version's ids. Page with `before` = the previous page's nextBefore.",
        {
          parameters: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
            },
            {
              name: 'before',
              in: 'query',
              required: false,
              description: 'Versions numbered below this.',
              schema: { type: 'integer', minimum: 1 },
            },
          ],
          responses: {
            '200': json(ref('schemas/VersionList'), 'The page.'),
            '400': error('invalid_parameter: limit or before out of range, or an unknown parameter.'),
            ...common,
          },
        },
      ),
      post: operation(
        'saveVersion',
        'Save a new version',
        'editBot (owner, editor)',
        'Saves a definition as a new immutable version on `baseVersionId`, which must still be the newest version: when someone saved since, nothing is written and the answer is 409 version_conflict with `details.base`, `details.theirs` (id, definition, author, createdAt, message) and `details.yours`. Saving what the newest version already holds makes no version (200, created false). A definition with problems is saved; they are returned and block its publish.',
        {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['baseVersionId', 'definition'],
                  properties: {
                    baseVersionId: { type: 'string', pattern: versionIdPattern },
                    definition,
                    message: { type: 'string', maxLength: 500 },
                  },
                },
              },
            },
          },
          responses: {
            '201': json(ref('schemas/SaveResult'), 'Saved as a new version.'),
            '200': json(ref('schemas/SaveResult'), 'The newest version holds this already; nothing was saved.'),
            ...bodyErrors,
            ...notFound,
            '409': error(
              'version_conflict: someone saved a version since the base; details hold base, theirs and yours.',
            ),
            ...common,
          },
        },
      ),
    },
    '/studio/api/versions/{id}': {
      get: operation(
        'readVersion',
        'A version with its definition',
        'any',
        "The version's details and its definition as written.",
        {
          parameters: [versionIdParameter],
          responses: { '200': json(ref('schemas/Version'), 'The version.'), ...notFound, ...common },
        },
      ),
    },
    '/studio/api/versions/{id}/export': {
      get: operation(
        'exportVersion',
        'A version as a JSON or YAML file',
        'any',
        'The definition as the file kept in git: keys in one stable order, so `git diff` shows only what changed; reading it back gives the same version (same hash).',
        {
          parameters: [
            versionIdParameter,
            {
              name: 'format',
              in: 'query',
              required: false,
              schema: { type: 'string', enum: ['json', 'yaml'], default: 'json' },
            },
          ],
          responses: {
            '200': {
              description: 'The file (Content-Disposition: attachment).',
              content: {
                'application/json': { schema: {} },
                'application/yaml': { schema: { description: 'The YAML document (any YAML value).' } },
              },
            },
            '400': error('invalid_parameter: format is neither json nor yaml, or an unknown parameter.'),
            ...notFound,
            ...common,
          },
        },
      ),
    },
    '/studio/api/draft': {
      get: operation(
        'readDraft',
        'Your draft',
        'editBot',
        "The caller's own draft; on the first read it is made from the newest version.",
        {
          responses: { '200': json(ref('schemas/Draft'), 'The draft.'), ...common },
        },
      ),
      put: operation(
        'autosaveDraft',
        'Autosave your draft',
        'editBot',
        'Writes the draft if its revision is still `revision` (null: there is none yet); otherwise 409 draft_conflict (another tab or window of the same account saved it), and nothing is written.',
        {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['baseVersionId', 'revision', 'definition'],
                  properties: {
                    baseVersionId: { type: ['string', 'null'], pattern: versionIdPattern },
                    revision: { type: ['integer', 'null'], minimum: 1 },
                    definition,
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
                required: ['revision', 'updatedAt'],
                properties: { revision: { type: 'integer', minimum: 1 }, updatedAt: { type: 'integer' } },
              },
              'Saved.',
            ),
            ...bodyErrors,
            ...notFound,
            '409': error(
              'draft_conflict: the draft was saved elsewhere since `revision`; details name the stored revision.',
            ),
            ...common,
          },
        },
      ),
    },
    '/studio/api/check': {
      post: operation(
        'checkDefinition',
        'The problems of a definition',
        'any',
        'Every problem `chatbot check` finds, with the path of the field (e.g. `dialogs[2].steps[0].text`), errors and warnings.',
        {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['definition'],
                  properties: { definition },
                },
              },
            },
          },
          responses: {
            '200': json(
              {
                type: 'object',
                additionalProperties: false,
                required: ['problems'],
                properties: { problems: { type: 'array', items: ref('schemas/Problem') } },
              },
              'The problems (none: an empty list).',
            ),
            ...bodyErrors,
            ...common,
          },
        },
      ),
    },
    '/studio/api/publish/plan': {
      post: operation(
        'publishPlan',
        'What publishing a version would do',
        'any',
        'The problems (errors block the publish), the changes against the live version in words, and each position users could be resting on that the version lacks, with the users resting there now and where they go unless another target is chosen.',
        {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['versionId'],
                  properties: { versionId: { type: 'string', pattern: versionIdPattern } },
                },
              },
            },
          },
          responses: { '200': json(ref('schemas/PublishPlan'), 'The plan.'), ...bodyErrors, ...notFound, ...common },
        },
      ),
    },
    '/studio/api/publish': {
      post: operation(
        'publish',
        'Publish a version (or roll back to an earlier one)',
        'publish (owner, editor)',
        'Runs every check, then puts the version in service on every node between two turns, with no connection dropped. Each stranded position goes to its chosen target (`moves`), the rest to the default the plan shows; users move at their next message. Publishing an earlier version than the live one is a rollback.',
        {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['versionId'],
                  properties: {
                    versionId: { type: 'string', pattern: versionIdPattern },
                    moves: {
                      type: 'array',
                      maxItems: 1000,
                      items: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['from', 'to'],
                        properties: { from: stepRef, to: stepRef },
                      },
                    },
                    message: { type: 'string', maxLength: 500 },
                  },
                },
              },
            },
          },
          responses: {
            '200': json(
              ref('schemas/PublishResult'),
              'Published and in service on this node; the other nodes follow within seconds.',
            ),
            '400': error(
              'invalid_body, or invalid_move: a move from a position nobody would be stranded on, or to a step the version lacks.',
            ),
            '413': bodyErrors['413'],
            '415': bodyErrors['415'],
            ...notFound,
            '409': error('already_live: the version is live already.'),
            '422': error(
              "definition_invalid: the version has problems that block publishing; details.problems lists them. tests_failed: some of the bot's tests fail on it; details.tests has each failing test with chatbot test's report.",
            ),
            '503': error(
              'publish_failed: the version could not be put in service (the server log says why); nothing was published.',
            ),
            ...common,
          },
        },
      ),
    },
    '/studio/api/import': {
      post: operation(
        'importVersion',
        'Import a file as a new version',
        'editBot',
        'The body is the file as it is (JSON or YAML by Content-Type), at most 5 MB. It becomes a new version on the newest one (source "push"), even with problems (returned; they block its publish); the newest version\'s content again makes no version. `chatbot push` uses this.',
        {
          parameters: [{ name: 'message', in: 'query', required: false, schema: { type: 'string', maxLength: 500 } }],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: {} },
              'application/yaml': {
                schema: {
                  description:
                    'A YAML document: any YAML value is read (one that is not a definition is kept with its problems).',
                },
              },
            },
          },
          responses: {
            '201': json(ref('schemas/SaveResult'), 'Saved as a new version.'),
            '200': json(ref('schemas/SaveResult'), 'The newest version holds this already.'),
            '400': error(
              'invalid_definition: the text is not valid JSON or YAML, or breaks the bounds (details.problems); invalid_parameter: message too long or an unknown parameter.',
            ),
            '413': bodyErrors['413'],
            '415': error('unsupported_media_type: neither application/json nor application/yaml, or compressed.'),
            ...common,
          },
        },
      ),
    },
  };
}

const author: Obj = {
  type: 'object',
  additionalProperties: false,
  required: ['kind'],
  properties: {
    kind: { type: 'string', enum: ['account', 'token', 'file', 'system'] },
    accountId: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
  },
};
const versionMeta: Obj = {
  id: { type: 'string', pattern: versionIdPattern },
  number: { type: 'integer', minimum: 1 },
  parentId: { type: ['string', 'null'] },
  author,
  createdAt: { type: 'integer', description: 'Epoch milliseconds.' },
  message: { type: 'string' },
  hash: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'sha256 of the canonical text.' },
  source: { type: 'string', enum: ['studio', 'file', 'push'] },
  publishedAt: { type: 'integer', description: 'When it was last put live; absent when never.' },
  publishedBy: {
    ...author,
    description: 'Who last put it live (a publish, a rollback, or the file at start); absent when never.',
  },
};
const metaRequired = ['id', 'number', 'parentId', 'author', 'createdAt', 'message', 'hash', 'source'];
const problem: Obj = {
  type: 'object',
  additionalProperties: false,
  required: ['path', 'message', 'severity'],
  properties: {
    path: { type: 'string' },
    message: { type: 'string' },
    hint: { type: 'string' },
    severity: { type: 'string', enum: ['error', 'warning'] },
  },
};

export function studioVersionsSchemas(): Obj {
  return {
    VersionMeta: { type: 'object', additionalProperties: false, required: metaRequired, properties: versionMeta },
    Version: {
      type: 'object',
      additionalProperties: false,
      required: [...metaRequired, 'definition'],
      properties: { ...versionMeta, definition },
    },
    VersionList: {
      type: 'object',
      additionalProperties: false,
      required: ['versions', 'publishedId', 'headId'],
      properties: {
        versions: { type: 'array', items: ref('schemas/VersionMeta') },
        publishedId: { type: ['string', 'null'] },
        headId: { type: ['string', 'null'] },
        nextBefore: { type: 'integer' },
      },
    },
    Draft: {
      type: 'object',
      additionalProperties: false,
      required: ['baseVersionId', 'definition', 'revision', 'updatedAt'],
      properties: {
        baseVersionId: { type: ['string', 'null'] },
        definition,
        revision: { type: 'integer', minimum: 1 },
        updatedAt: { type: 'integer' },
      },
    },
    Problem: problem,
    SaveResult: {
      type: 'object',
      additionalProperties: false,
      required: ['created', 'version', 'problems'],
      properties: {
        created: { type: 'boolean' },
        version: ref('schemas/VersionMeta'),
        problems: { type: 'array', items: ref('schemas/Problem') },
      },
    },
    PublishPlan: {
      type: 'object',
      additionalProperties: false,
      required: ['versionId', 'liveVersionId', 'rollback', 'problems', 'diff', 'stranded', 'tests'],
      properties: {
        versionId: { type: 'string' },
        liveVersionId: { type: ['string', 'null'] },
        rollback: {
          type: 'boolean',
          description: 'An earlier version than the live one: publishing it is a rollback.',
        },
        problems: { type: 'array', items: ref('schemas/Problem') },
        diff: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['kind', 'what', 'path', 'words'],
            properties: {
              kind: { type: 'string', enum: ['added', 'removed', 'changed'] },
              what: { type: 'string', enum: ['dialog', 'step', 'settings', 'intent', 'faq', 'part'] },
              path: { type: 'string' },
              dialogId: { type: 'string' },
              stepId: { type: 'string' },
              id: { type: 'string' },
              fields: { type: 'array', items: { type: 'string' } },
              words: { type: 'string' },
            },
          },
        },
        stranded: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['dialogId', 'stepId', 'users', 'defaultTarget'],
            properties: {
              dialogId: { type: 'string' },
              stepId: { type: 'string' },
              users: { type: 'integer', minimum: 0 },
              defaultTarget: { oneOf: [stepRef, { type: 'null' }] },
            },
          },
        },
        tests: {
          type: 'array',
          description:
            "The bot's tests run on the version; a failing one blocks the publish. report is what chatbot test prints for it.",
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'passed', 'report'],
            properties: { name: { type: 'string' }, passed: { type: 'boolean' }, report: { type: 'string' } },
          },
        },
      },
    },
    PublishResult: {
      type: 'object',
      additionalProperties: false,
      required: ['publication', 'rollback'],
      properties: {
        rollback: { type: 'boolean' },
        publication: {
          type: 'object',
          additionalProperties: false,
          required: ['seq', 'versionId', 'previousId', 'at', 'by', 'kind', 'moves'],
          properties: {
            seq: { type: 'integer', minimum: 1 },
            versionId: { type: 'string' },
            previousId: { type: ['string', 'null'] },
            at: { type: 'integer' },
            by: author,
            kind: { type: 'string', enum: ['publish', 'rollback', 'file'] },
            moves: {
              type: 'array',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['from', 'to'],
                properties: { from: stepRef, to: stepRef },
              },
            },
            message: { type: 'string' },
          },
        },
      },
    },
  };
}
