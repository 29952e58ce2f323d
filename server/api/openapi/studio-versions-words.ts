/**
 * The versions part of the studio's API in the OpenAPI document, in words: routes in
 * server/studio-server/http/versions-routes.ts and, for the designer, server/studio-server/designer/.
 * Paths, parameters, bodies and answers come from the map (studio-map-operations.ts). Every
 * operation needs a studio session (cookie, with the CSRF header on writes) or an account's API
 * token; the role each needs is named.
 */
import type { StudioRouteName } from '../../../shared/studio-routes.ts';
import { error } from './operation-parts.ts';
import { type OperationWords } from './studio-openapi-parts.ts';

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

const tag = 'Studio: versions';
const read = 'readBot (any role)';
const edit = 'editBot (owner, editor)';
/** A definition may be 5 MB: the bounds of a body that holds one (server/studio-server/http/definition-body.ts). */
const definitionBodyErrors = {
  '400': error(
    'invalid_body: not JSON, not the fields listed, or a definition nested deeper than 32 levels or holding more than 500,000 values.',
  ),
  '413': error('payload_too_large: over 5 MB (and a little for the fields around the definition).'),
  '415': error('unsupported_media_type: not Content-Type application/json, or compressed.'),
};
const notFound = { '404': error('version_not_found: no such version.') };

export const versionsWords = {
  listVersions: {
    tag,
    role: read,
    summary: 'The versions, newest first',
    description:
      "Each version with its author, time, message, content hash, source and when it was last published; with the published and the newest (head) version's ids. Page with `before` = the previous page's nextBefore.",
    answer: 'The page.',
    errors: { '400': error('invalid_parameter: limit or before out of range, or an unknown parameter.') },
  },
  saveVersion: {
    tag,
    role: edit,
    summary: 'Save a new version',
    description:
      'Saves a definition as a new immutable version on `baseVersionId`, which must still be the newest version: when someone saved since, nothing is written and the answer is 409 version_conflict with `details.base`, `details.theirs` (id, definition, author, createdAt, message) and `details.yours`. Saving what the newest version already holds makes no version (200, created false). A definition with problems is saved; they are returned and block its publish.',
    answer: 'The newest version holds this already; nothing was saved.',
    also: { '201': 'Saved as a new version.' },
    errors: {
      ...definitionBodyErrors,
      ...notFound,
      '409': error('version_conflict: someone saved a version since the base; details hold base, theirs and yours.'),
    },
  },
  readVersion: {
    tag,
    role: read,
    summary: 'A version with its definition',
    description: "The version's details and its definition as written.",
    answer: 'The version.',
    errors: notFound,
  },
  exportVersion: {
    tag,
    role: read,
    summary: 'A version as a JSON or YAML file',
    description:
      'The definition as the file kept in git: keys in one stable order, so `git diff` shows only what changed; reading it back gives the same version (same hash).',
    answer: 'The file (Content-Disposition: attachment).',
    responses: {
      '200': {
        description: 'The file (Content-Disposition: attachment).',
        content: {
          'application/json': { schema: {} },
          'application/yaml': { schema: { description: 'The YAML document (any YAML value).' } },
        },
      },
    },
    errors: {
      '400': error('invalid_parameter: format is neither json nor yaml, or an unknown parameter.'),
      ...notFound,
    },
  },
  readDraft: {
    tag,
    role: edit,
    summary: 'Your draft',
    description: "The caller's own draft; on the first read it is made from the newest version.",
    answer: 'The draft.',
  },
  autosaveDraft: {
    tag,
    role: edit,
    summary: 'Autosave your draft',
    description:
      'Writes the draft if its revision is still `revision` (null: there is none yet); otherwise 409 draft_conflict (another tab or window of the same account saved it), and nothing is written.',
    answer: 'Saved.',
    errors: {
      ...definitionBodyErrors,
      ...notFound,
      '409': error('draft_conflict: the draft was saved elsewhere since `revision`; details name the stored revision.'),
    },
  },
  checkDefinition: {
    tag,
    role: read,
    summary: 'The problems of a definition',
    description:
      'Every problem `chatbot check` finds, with the path of the field (e.g. `dialogs[2].steps[0].text`), errors and warnings.',
    answer: 'The problems (none: an empty list).',
    errors: definitionBodyErrors,
  },
  publishPlan: {
    tag,
    role: read,
    summary: 'What publishing a version would do',
    description:
      'The problems (errors block the publish), the changes against the live version in words, and each position users could be resting on that the version lacks, with the users resting there now and where they go unless another target is chosen.',
    answer: 'The plan.',
    errors: { ...definitionBodyErrors, ...notFound },
  },
  publish: {
    tag,
    role: 'publish (owner, editor)',
    summary: 'Publish a version (or roll back to an earlier one)',
    description:
      'Runs every check, then puts the version in service on every node between two turns, with no connection dropped. Each stranded position goes to its chosen target (`moves`), the rest to the default the plan shows; users move at their next message. Publishing an earlier version than the live one is a rollback.',
    answer: 'Published and in service on this node; the other nodes follow within seconds.',
    errors: {
      ...definitionBodyErrors,
      '400': error(
        'invalid_body, or invalid_move: a move from a position nobody would be stranded on, or to a step the version lacks.',
      ),
      ...notFound,
      '409': error('already_live: the version is live already.'),
      '422': error(
        "definition_invalid: the version has problems that block publishing; details.problems lists them. tests_failed: some of the bot's tests fail on it; details.tests has each failing test with chatbot test's report.",
      ),
      '503': error(
        'publish_failed: the version could not be put in service (the server log says why); nothing was published.',
      ),
    },
  },
  importVersion: {
    tag,
    role: edit,
    summary: 'Import a file as a new version',
    description:
      'The body is the file as it is (JSON or YAML by Content-Type), at most 5 MB. It becomes a new version on the newest one (source "push"), even with problems (returned; they block its publish); the newest version\'s content again makes no version. `chatbot push` uses this.',
    answer: 'The newest version holds this already.',
    also: { '201': 'Saved as a new version.' },
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
    errors: {
      '400': error(
        'invalid_definition: the text is not valid JSON or YAML, or breaks the bounds (details.problems); invalid_parameter: message too long or an unknown parameter.',
      ),
      '413': error('payload_too_large: over 5 MB.'),
      '415': error('unsupported_media_type: neither application/json nor application/yaml, or compressed.'),
    },
  },
  designerCatalogue: {
    tag,
    role: read,
    summary: 'The step types and the schema the designer is made from',
    description:
      "The editor JSON Schema of the bot definition and every step type the bot in service knows (built in, presets and the bot's own), with its parameters, mappings and default timing: the designer's palette and forms are drawn from it.",
    answer: 'The catalogue (not cached: a publish can change the bot’s own step types).',
  },
  designerPresence: {
    tag,
    role: read,
    summary: 'Say the designer is open; who else has it open',
    description:
      'A beat (the designer sends one every 20 s) saying the caller has the designer open, on `dialog` if given; the answer lists the others whose last beat is under 45 s old, and on which dialog.',
    answer: 'The others who have the designer open.',
  },
} as const satisfies { readonly [N in StudioRouteName]?: OperationWords };
