import { z } from 'zod';
import { camelCase, id, template } from './common.ts';
import { stepSchema } from './steps.ts';

/**
 * The bot definition: one file defines the one bot a server runs.
 * Schema first; every type below is inferred from it. Documented in docs/bot-definition.md;
 * exported as JSON Schema to docs/bot-definition.schema.json.
 */

export { stepSchema };

export const dialogSchema = z
  .object({
    id,
    steps: z.array(stepSchema).min(1, 'a dialog needs at least one step'),
  })
  .strict();

const intentSchema = z
  .object({
    id,
    /** The dialog a classified utterance starts. */
    dialog: id,
    /** Example phrasings; the classifier trains on them at start-up. */
    utterances: z.array(z.string().min(1).max(500)).min(1, 'an intent needs at least one utterance'),
  })
  .strict();

const faqSchema = z
  .object({
    id,
    /** Phrasings of the question; the user's question is fuzzy-matched against them. */
    questions: z.array(z.string().min(1).max(500)).min(1, 'a FAQ pair needs at least one question'),
    answer: template(),
  })
  .strict();

/**
 * Services the integration steps call (base URL + auth) and background datasets. Only the
 * outline is checked here: the integration layer owns the full schema
 * (server/integrations/settings.ts) and main.ts validates against it at start-up,
 * naming the path (e.g. integrations.services.crm.auth.tokenEnv). Secrets are always
 * named by environment variable, never written here.
 */
const integrationSettingsSchema = z
  .object({
    services: z.record(z.string(), z.looseObject({})).optional(),
    datasets: z.array(z.looseObject({})).optional(),
  })
  .strict();

const pageEventSchema = z
  .object({
    /** The event name the page sends. */
    name: z.string().min(1).max(100),
    /** Starts this dialog when the event arrives. */
    dialog: id,
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
        /** Lowest intent score (0..1) that routes free text to an intent's dialog. */
        nlpThreshold: z.number().min(0).max(1).default(0.7),
        /** Lowest FAQ match score (0..1, 1 = exact) that answers a question. */
        faqThreshold: z.number().min(0).max(1).default(0.6),
        /**
         * Most steps a run may take without input from outside (the user, the page, a trigger),
         * across the turns it chains itself (integration results, failed email or SMS, waits
         * under a second). Past it the run stops and the user hears fallbackText.
         */
        maxStepsWithoutInput: z.number().int().min(1).max(1000).default(100),
        /** Most integration calls, email, SMS and waits under a second in such a run: a loop through them cannot hammer anyone. */
        maxCallsWithoutInput: z.number().int().min(1).max(100).default(10),
        /**
         * Where a user goes whose position names a dialog or step this definition no longer has
         * (a redeploy renamed or removed it): "dialogStart", the first step of their dialog while it
         * exists, else recoveryDialog; "recoveryDialog", always there. The move is logged.
         */
        recovery: z.enum(['dialogStart', 'recoveryDialog']).default('dialogStart'),
        /** The dialog recovery moves a stranded user to; startDialog when omitted. */
        recoveryDialog: id.optional(),
      })
      .strict(),
    /** The user-data storages: what the userData export returns, one field each. */
    userDataFields: z.array(camelCase).default([]),
    dialogs: z.array(dialogSchema).min(1, 'a bot needs at least one dialog'),
    intents: z.array(intentSchema).default([]),
    faq: z.array(faqSchema).default([]),
    integrations: integrationSettingsSchema.default({}),
    /**
     * The bot's own integration step types: module files (.mjs/.js), relative to this file,
     * each default-exporting a step type (docs/integrations.md). Loaded at start-up.
     */
    stepTypes: z.array(z.string().min(1).max(500)).max(50).default([]),
    pageEvents: z.array(pageEventSchema).default([]),
  })
  .strict();

export type BotDefinition = z.infer<typeof botDefinitionSchema>;
export type Dialog = z.infer<typeof dialogSchema>;
export type Step = z.infer<typeof stepSchema>;
export type StepOf<T extends Step['type']> = Extract<Step, { type: T }>;
export type Intent = z.infer<typeof intentSchema>;
export type FaqPair = z.infer<typeof faqSchema>;
