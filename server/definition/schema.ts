import { z } from 'zod';
import { camelCase, id, template } from './common.ts';
import { stepSchema } from './steps.ts';
import { whatsAppTemplateSchema } from './whatsapp-template.ts';

/**
 * The bot definition: one file defines the one bot a server runs.
 * Schema first; every type below is inferred from it. Documented in docs/bot-definition.md;
 * exported as JSON Schema to docs/bot-definition.schema.json.
 */

export { stepSchema };

export const dialogSchema = z
  .object({
    id: id.describe('The dialog id: targets, buttons, intents and triggers name it.'),
    steps: z
      .array(stepSchema)
      .min(1, 'a dialog needs at least one step')
      .describe('The steps, run in order unless a step says where to go.'),
    whatsappTemplate: whatsAppTemplateSchema
      .optional()
      .describe(
        'For a dialog a trigger or timer may start: the approved WhatsApp template sent instead of its opening messages when the user last wrote more than 24 hours ago (docs/channels.md). Without it, such a trigger is refused with 409.',
      ),
  })
  .strict();

const intentSchema = z
  .object({
    id: id.describe('The intent id.'),
    dialog: id.describe('The dialog a classified utterance starts.'),
    utterances: z
      .array(z.string().min(1).max(500))
      .min(1, 'an intent needs at least one utterance')
      .describe('Example phrasings; the classifier trains on them at start-up.'),
  })
  .strict();

const faqSchema = z
  .object({
    id: id.describe('The FAQ pair id.'),
    questions: z
      .array(z.string().min(1).max(500))
      .min(1, 'a FAQ pair needs at least one question')
      .describe(
        "Phrasings of the question (one is enough; more widen what it matches); the user's question is matched against each by meaning of words, not characters.",
      ),
    answer: template().describe('The answer; templates and the safe markdown subset allowed.'),
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
    services: z
      .record(z.string(), z.looseObject({}))
      .optional()
      .describe('Services by name: { baseUrl, baseUrlEnv?, auth? } (docs/integrations.md).'),
    datasets: z
      .array(z.looseObject({}))
      .optional()
      .describe('Background datasets: { name, source?, refreshIntervalSec?, fields? } (docs/integrations.md).'),
  })
  .strict();

const pageEventSchema = z
  .object({
    name: z.string().min(1).max(100).describe('The event name the page sends.'),
    dialog: id.describe('Starts this dialog when the event arrives.'),
  })
  .strict();

export const botDefinitionSchema = z
  .object({
    $schema: z
      .string()
      .optional()
      .describe(
        'The JSON Schema editors validate this file with, e.g. https://your-bot.example.com/bot-definition.schema.json.',
      ),
    settings: z
      .object({
        id: id.describe('The bot id: trigger addresses name it.'),
        name: z.string().min(1).max(200).describe('The bot name users see in the widget header.'),
        avatarUrl: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .optional()
          .describe('Picture the web chat shows in its header beside the name: an absolute http(s) URL.'),
        locale: z
          .string()
          .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as "en" or "en-GB"')
          .default('en')
          .describe(
            'The language of the bot, e.g. "en" or "en-GB": intents and FAQ are read with its tokenisation, stopwords and stemming (en, de, fr, es, it, pl, pt, nl; others as English).',
          ),
        startDialog: id.describe('Dialog a new user starts in.'),
        fallbackText: z
          .string()
          .min(1)
          .max(4096)
          .default("Sorry, I didn't understand that.")
          .describe("What the bot says when it cannot use the user's input."),
        nlpThreshold: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe(
            "Lowest intent score (0..1) that routes free text to an intent's dialog. Omitted: the threshold the classifier calibrates for this bot when it loads (docs/understanding.md).",
          ),
        faqThreshold: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe(
            'Lowest FAQ match score (0..1, 1 = exact) that answers a question. Omitted: the threshold the FAQ matcher calibrates for this bot when it loads.',
          ),
        synonyms: z
          .array(z.array(z.string().min(1).max(100)).min(2).max(20))
          .max(500)
          .default([])
          .describe(
            'Groups of words that mean the same to this bot\'s FAQ, e.g. [["parcel", "package"]]: a question in one word matches a phrasing in another.',
          ),
        maxStepsWithoutInput: z
          .number()
          .int()
          .min(1)
          .max(1000)
          .default(100)
          .describe(
            'Most steps a run may take without input from outside (the user, the page, a trigger), across the turns it chains itself (integration results, failed email or SMS, waits under a second). Past it the run stops and the user hears fallbackText.',
          ),
        maxCallsWithoutInput: z
          .number()
          .int()
          .min(1)
          .max(100)
          .default(10)
          .describe(
            'Most integration calls, email, SMS and waits under a second in such a run: a loop through them cannot hammer anyone.',
          ),
        recovery: z
          .enum(['dialogStart', 'recoveryDialog'])
          .default('dialogStart')
          .describe(
            'Where a user goes whose position names a dialog or step this definition no longer has (a redeploy renamed or removed it): "dialogStart", the first step of their dialog while it exists, else recoveryDialog; "recoveryDialog", always there. The move is logged.',
          ),
        recoveryDialog: id
          .optional()
          .describe('The dialog recovery moves a stranded user to; startDialog when omitted.'),
      })
      .strict()
      .describe('Who the bot is and how it behaves.'),
    userDataFields: z
      .array(camelCase)
      .default([])
      .describe('The user-data storages: what the userData export returns, one field each.'),
    dialogs: z
      .array(dialogSchema)
      .min(1, 'a bot needs at least one dialog')
      .describe('The dialogs: named lists of steps.'),
    intents: z.array(intentSchema).default([]).describe('Intents: free text classified to one starts its dialog.'),
    faq: z.array(faqSchema).default([]).describe('Question and answer pairs faq steps answer from.'),
    integrations: integrationSettingsSchema
      .default({})
      .describe(
        'The services integration steps call (base URL and sign-in) and background datasets. A key or password is named (a studio secret or an environment variable), never written here.',
      ),
    stepTypes: z
      .array(z.string().min(1).max(500))
      .max(50)
      .default([])
      .describe(
        "The bot's own integration step types: module files (.mjs/.js), relative to this file, each default-exporting a step type (docs/integrations.md). Loaded at start-up.",
      ),
    pageEvents: z.array(pageEventSchema).default([]).describe('Page events that start a dialog.'),
  })
  .strict();

export type BotDefinition = z.infer<typeof botDefinitionSchema>;
export type Dialog = z.infer<typeof dialogSchema>;
export type Step = z.infer<typeof stepSchema>;
export type StepOf<T extends Step['type']> = Extract<Step, { type: T }>;
export type Intent = z.infer<typeof intentSchema>;
export type FaqPair = z.infer<typeof faqSchema>;
