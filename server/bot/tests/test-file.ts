import { z } from 'zod';

/**
 * A bot author's conversation tests: scripted conversations run on the real engine and use
 * cases (docs in the README, "Bot author's loop"). Schema first; the types are inferred.
 */

const json = z.record(z.string(), z.unknown());

/** What an integration step answers in a test: its output, or a failure its onError handles. */
const stubSchema = z.union([
  z.object({ output: z.unknown() }).strict(),
  z
    .object({
      error: z
        .object({
          /** network, timeout, status, invalid_body, … as the integration layer classifies failures. */
          kind: z.string().min(1).max(50),
          message: z.string().max(500).default('stubbed failure'),
          status: z.number().int().min(100).max(599).optional(),
        })
        .strict(),
    })
    .strict(),
]);

/** Integration steps answered by stubs, keyed "dialogId.stepId". */
const stubsSchema = z.record(z.string().regex(/^[^.]+\.[^.]+$/, 'name the step as "dialogId.stepId"'), stubSchema);

/** A line the bot must say: the exact text, or a regular expression it must match. */
const lineSchema = z.union([z.string(), z.object({ matches: z.string().min(1).max(500) }).strict()]);

const stepSchema = z
  .object({
    // At most one action; a step without one checks what the previous one (or the opening) left.
    /** The user types this text. */
    user: z.string().min(1).max(4096).optional(),
    /** The user presses the button or quick reply with this label (the latest one that has it). */
    press: z.string().min(1).max(200).optional(),
    /** The host page sends this event (with `payload`). */
    event: z.string().min(1).max(100).optional(),
    payload: json.optional(),
    /** The page starts this dialog (with `data` as the variable pageData). */
    startDialog: z.string().min(1).max(64).optional(),
    /** An outside system triggers this dialog (management API; `data` becomes the user-data field triggerData). */
    trigger: z.string().min(1).max(64).optional(),
    /** With trigger: "clear" forgets where the user was first. */
    mode: z.literal('clear').optional(),
    data: json.optional(),
    /** Time passes, e.g. "10m": due wait-step timers fire in order. */
    wait: z
      .string()
      .regex(/^\d{1,9}(ms|s|m|h|d)$/, 'must be a duration such as "30s" or "10m"')
      .optional(),
    // What must have happened after the action.
    /** Every message the bot said, in order (text; "[image] alt", "[carousel] title | title", "[notice] text"). */
    bot: z.array(lineSchema).max(100).optional(),
    /** The labels of the buttons and quick replies of the latest bot message. */
    buttons: z.array(z.string()).max(50).optional(),
    /** Variables that must have these values (others are not checked). */
    variables: json.optional(),
    /** User-data fields that must have these values (others are not checked). */
    userData: json.optional(),
    /** Events the bot sent to the page, in order; a payload given must match in the keys it names. */
    events: z
      .array(z.object({ name: z.string().min(1), payload: json.optional() }).strict())
      .max(50)
      .optional(),
    /** Where the conversation rests afterwards ("dialogId.stepId"), or null when it ended. */
    at: z
      .string()
      .regex(/^[^.]+\.[^.]+$/, 'name the step as "dialogId.stepId"')
      .nullable()
      .optional(),
  })
  .strict()
  .refine(
    (s) => [s.user, s.press, s.event, s.startDialog, s.trigger, s.wait].filter((a) => a !== undefined).length <= 1,
    {
      message: 'a step takes at most one action: user, press, event, startDialog, trigger or wait',
    },
  );

const testSchema = z
  .object({
    name: z.string().min(1).max(200),
    /** What the page passes when the widget opens (user data and variables). */
    pageData: json.optional(),
    /** Where the conversation begins instead of the start dialog: a dialog, or a step as "dialogId.stepId" (pageData is saved first). */
    startAt: z
      .string()
      .regex(/^[^.]+(\.[^.]+)?$/, 'name a dialog, or a step as "dialogId.stepId"')
      .optional(),
    /** Stubs for this test only, over the file's. */
    stubs: stubsSchema.optional(),
    steps: z.array(stepSchema).min(1).max(500),
  })
  .strict();

export const testFileSchema = z
  .object({
    $schema: z.string().optional(),
    /** The bot definition under test, relative to this file. */
    definition: z.string().min(1).max(500),
    /** Environment variables the definition names (a wait step's durationEnv); nothing else is read from the process. */
    env: z.record(z.string(), z.string()).default({}),
    stubs: stubsSchema.default({}),
    tests: z.array(testSchema).min(1).max(1000),
  })
  .strict();

export type TestFile = z.infer<typeof testFileSchema>;
export type BotTest = TestFile['tests'][number];
export type TestStep = BotTest['steps'][number];
export type Stub = z.infer<typeof stubSchema>;
export type Line = z.infer<typeof lineSchema>;
