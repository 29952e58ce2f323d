import { z } from 'zod';

/**
 * The bot definition: one file defines the one bot a server runs.
 * Schema first; every type below is inferred from it.
 */

const id = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must start with a letter and hold only letters, digits, "_" and "-" (at most 64)');

const camelCase = z
  .string()
  .regex(/^[a-z][A-Za-z0-9]{0,63}$/, 'must be camelCase: a lowercase letter, then letters and digits');

/** Where an input step keeps the answer: a user-data field (exported) or a variable (not exported). */
const saveTarget = z.union([
  z.object({ userData: camelCase }).strict(),
  z.object({ variable: camelCase }).strict(),
]);

const stepBase = {
  id,
  /** Step to run next in the same dialog; the following step when omitted. */
  next: id.optional(),
};

const messageStep = z
  .object({
    ...stepBase,
    type: z.literal('message'),
    /** Text with {{variable}} templates. */
    text: z.string().min(1).max(4096),
  })
  .strict();

const inputStep = z
  .object({
    ...stepBase,
    type: z.literal('input'),
    prompt: z.string().min(1).max(4096),
    saveTo: saveTarget,
  })
  .strict();

const gotoStep = z
  .object({
    id,
    type: z.literal('goto'),
    dialog: id,
    step: id.optional(),
  })
  .strict();

const endStep = z.object({ id, type: z.literal('end') }).strict();

export const stepSchema = z.discriminatedUnion('type', [messageStep, inputStep, gotoStep, endStep]);

export const dialogSchema = z
  .object({
    id,
    steps: z.array(stepSchema).min(1, 'a dialog needs at least one step'),
  })
  .strict();

export const botDefinitionSchema = z
  .object({
    $schema: z.string().optional(),
    settings: z
      .object({
        /** The bot id: trigger addresses name it. */
        id,
        name: z.string().min(1).max(200),
        locale: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as "en" or "en-GB"').default('en'),
        /** Dialog a new user starts in. */
        startDialog: id,
        /** What the bot says when it cannot use the user's input. */
        fallbackText: z.string().min(1).max(4096).default("Sorry, I didn't understand that."),
      })
      .strict(),
    /** The user-data storages: what the userData export returns, one field each. */
    userDataFields: z.array(camelCase).default([]),
    dialogs: z.array(dialogSchema).min(1, 'a bot needs at least one dialog'),
  })
  .strict();

export type BotDefinition = z.infer<typeof botDefinitionSchema>;
export type Dialog = z.infer<typeof dialogSchema>;
export type Step = z.infer<typeof stepSchema>;
export type StepOf<T extends Step['type']> = Extract<Step, { type: T }>;
