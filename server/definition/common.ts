import { z } from 'zod';

/** Shared building blocks of the bot definition schema. */

export const id = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_-]{0,63}$/,
    'must start with a letter and hold only letters, digits, "_" and "-" (at most 64)',
  );

export const camelCase = z
  .string()
  .regex(/^[a-z][A-Za-z0-9]{0,63}$/, 'must be camelCase: a lowercase letter, then letters and digits');

/** An environment variable name: secrets and deployment-specific values are named, never written inline. */
export const envName = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]{0,127}$/, 'must be an environment variable name such as "SMS_TOKEN" (capitals, digits, "_")');

/** A text with {{variable}} templates. */
export const template = (max = 4096) => z.string().min(1).max(max);

/**
 * A duration: a whole number followed by ms, s, m, h or d, e.g. "10m".
 * Parsed by `parseDuration` in duration.ts.
 */
export const duration = z
  .string()
  .regex(/^\d{1,9}(ms|s|m|h|d)$/, 'must be a duration such as "500ms", "30s", "10m", "2h" or "1d"');

/** Where to go: a step id of the same dialog, or another dialog (optionally a step in it). */
export const target = z.union([
  id,
  z
    .object({
      dialog: id.describe('The dialog to go to.'),
      step: id.optional().describe('The step of that dialog to start at; its first step when omitted.'),
    })
    .strict(),
]);

/** Where a value is kept: a user-data field (exported) or a variable (not exported). */
export const saveTarget = z.union([
  z.object({ userData: camelCase.describe('A field of userDataFields: kept with the user and exported.') }).strict(),
  z
    .object({
      variable: camelCase.describe('A conversation variable: templates and conditions read it; not exported.'),
    })
    .strict(),
]);

export const quickReply = z
  .object({
    label: z.string().min(1).max(100).describe('What the button shows.'),
    payload: z.string().min(1).max(1000).describe('What pressing it sends, as if the user had typed it.'),
  })
  .strict();

const buttonLabel = z.string().min(1).max(100).describe('What the button shows.');

export const button = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('postback').describe('Sends its payload as if typed.'),
      label: buttonLabel,
      payload: z.string().min(1).max(1000).describe('What pressing it sends.'),
    })
    .strict(),
  z
    .object({
      kind: z.literal('url').describe('Opens a link.'),
      label: buttonLabel,
      url: template(2000).describe(
        'The address; the user sees a tracked link ({base}/r/{signed token}) that records the click, then redirects here.',
      ),
    })
    .strict(),
  z
    .object({
      kind: z.literal('dialog').describe('Starts a dialog.'),
      label: buttonLabel,
      dialog: id.describe('The dialog pressing it starts.'),
    })
    .strict(),
]);

export type Target = z.infer<typeof target>;
export type SaveTarget = z.infer<typeof saveTarget>;
export type DefinitionButton = z.infer<typeof button>;
