import { z } from 'zod';
import { button, camelCase, duration, envName, id, quickReply, saveTarget, target, template } from './common.ts';
import { linkChannelsStep } from './link-channels-step.ts';
import { CONDITION_OPS } from '../../shared/condition-ops.ts';

/** One schema per step kind. The engine has one handler per kind (server/engine/steps/). */

/** A step's `type`, described for editors. */
const kind = <T extends string>(name: T, description: string) => z.literal(name).describe(description);

const base = {
  id: id.describe('The step id, unique in its dialog: targets (next, then, goto) name it.'),
  next: id.optional().describe('Step to run next in the same dialog; the following step when omitted.'),
};

const card = z
  .object({
    title: template(200).describe('The card title; templates allowed.'),
    subtitle: template(500).optional().describe('A line under the title.'),
    imageUrl: template(2000).optional().describe('An image at the top of the card.'),
    imageAlt: z.string().max(300).optional().describe('Said to screen reader users instead of the image.'),
    buttons: z.array(button).max(5).optional().describe('Up to 5 buttons on the card.'),
  })
  .strict();

export const messageStep = z
  .object({
    ...base,
    type: kind('message', 'Says something: text, an image, buttons, quick replies or cards.'),
    text: template()
      .optional()
      .describe(
        'Text with {{variable}} templates and the safe markdown subset (**bold**, *italic*, `code`, [links](https://…)).',
      ),
    image: z
      .object({
        url: template(2000).describe('The image address.'),
        alt: z.string().max(300).describe('Said to screen reader users instead of the image.'),
      })
      .strict()
      .optional()
      .describe('An image shown with the message.'),
    buttons: z
      .array(button)
      .max(10)
      .optional()
      .describe('Buttons under the text: a postback, a link or a dialog each.'),
    quickReplies: z.array(quickReply).max(13).optional().describe('Suggested answers shown until the user answers.'),
    cards: z.array(card).min(1).max(10).optional().describe('A carousel of cards.'),
    cardsFrom: z
      .string()
      .regex(/^[A-Za-z_]\w*(\.\w+)*$/, 'must be a variable name, dots allowed: "eventCards"')
      .optional()
      .describe(
        'A carousel built at run time from a variable holding a list of cards ({title, subtitle?, imageUrl?, imageAlt?, buttons?}), e.g. an integration step\'s output mapped with "@cards". Dots reach inside objects. At most 10 cards are shown.',
      ),
    noCardsText: template()
      .optional()
      .describe('Said instead of the carousel when the cardsFrom variable holds no cards.'),
  })
  .strict();

export const INPUT_TYPES = ['text', 'number', 'email', 'phone', 'choice', 'regex'] as const;

const choice = z
  .object({
    label: z.string().min(1).max(100).describe('What the choice shows.'),
    value: z.string().min(1).max(1000).optional().describe('What is saved and matched; the label when omitted.'),
    then: target.optional().describe("Where this answer leads; the step's `next` when omitted."),
  })
  .strict();

export const inputStep = z
  .object({
    ...base,
    type: kind('input', 'Asks a question and waits for the answer, validated by inputType.'),
    prompt: template().describe('The question; templates allowed.'),
    inputType: z
      .enum(INPUT_TYPES)
      .default('text')
      .describe('How the answer is validated: text, number, email, phone, choice or regex.'),
    pattern: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('For inputType "regex": the answer must match this (JavaScript syntax, whole answer).'),
    min: z.number().optional().describe('For inputType "number": inclusive bounds.'),
    max: z.number().optional().describe('For inputType "number": the inclusive upper bound.'),
    choices: z
      .array(choice)
      .min(1)
      .max(13)
      .optional()
      .describe(
        'For inputType "choice": shown as quick replies; typed text matches a label or value, case-insensitively.',
      ),
    retryPrompt: template().optional().describe('Said when an answer fails validation; the prompt when omitted.'),
    maxRetries: z.number().int().min(0).max(20).default(3).describe('How often a failed answer is asked again.'),
    onMaxRetries: target
      .optional()
      .describe('Where to go when the retries are used up; the dialog ends with the fallback text when omitted.'),
    saveTo: saveTarget.optional().describe('Where the answer is kept: { "userData": field } or { "variable": name }.'),
    quickReplies: z.array(quickReply).max(13).optional().describe('Suggested answers shown with the prompt.'),
  })
  .strict();

const condition = z
  .object({
    variable: z
      .string()
      .regex(/^[A-Za-z_]\w*(\.\w+)*$/, 'must be a variable name, dots allowed: "triggerData.status"')
      .describe('A variable or user-data field; dots reach inside objects, e.g. "triggerData.status".'),
    op: z
      .enum(CONDITION_OPS)
      .describe('equals, notEquals, empty, notEmpty, greater, less, contains, matches (a regex) or in (a list).'),
    value: z
      .union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number(), z.boolean()]))])
      .optional()
      .describe('Not used by empty / notEmpty; a list for "in"; a regex source for "matches".'),
  })
  .strict();

export const conditionStep = z
  .object({
    ...base,
    type: kind('condition', 'Branches on variables and user data: the first branch whose conditions hold wins.'),
    branches: z
      .array(
        z
          .object({
            when: z
              .union([condition, z.array(condition).min(1)])
              .describe('A condition, or a list of conditions that must all hold.'),
            then: target.describe('Where to go when it holds: a step id of this dialog, or { "dialog", "step"? }.'),
          })
          .strict(),
      )
      .min(1)
      .describe('Tried in order; the first whose conditions all hold wins.'),
    else: target.optional().describe('Where to go when no branch holds; `next` (or the following step) when omitted.'),
  })
  .strict();

export const SET_OPS = ['set', 'unset', 'append'] as const;

export const setStep = z
  .object({
    ...base,
    type: kind('set', 'Sets, unsets or appends to variables and user-data fields.'),
    actions: z
      .array(
        z
          .object({
            op: z.enum(SET_OPS).describe('set, unset or append (to a list).'),
            variable: camelCase.optional().describe('The variable to change; name exactly one of variable / userData.'),
            userData: camelCase.optional().describe('A field of userDataFields to change.'),
            value: z.json().optional().describe('A literal value…'),
            template: template().optional().describe('…or a template rendered to text.'),
          })
          .strict(),
      )
      .min(1)
      .describe('The changes, in order.'),
  })
  .strict();

export const gotoStep = z
  .object({
    id: base.id,
    type: kind('goto', 'Goes to another dialog (or a step in it).'),
    dialog: id.describe('The dialog to go to.'),
    step: id.optional().describe('The step of that dialog to start at; its first step when omitted.'),
  })
  .strict();

export const waitStep = z
  .object({
    ...base,
    type: kind('wait', 'Waits, then goes on: a durable timer, cancelled by what cancelOn names.'),
    /** How long to wait, e.g. "10m". */
    duration: duration.describe('How long to wait, e.g. "10m".'),
    durationEnv: envName
      .optional()
      .describe(
        'An environment variable that, when set, replaces `duration` (e.g. a short timeout for the demo and tests).',
      ),
    then: target.describe('Where the conversation goes when the time is up.'),
    cancelOn: z
      .object({
        dialogStart: z
          .boolean()
          .default(true)
          .describe('Another dialog starts for the user (a trigger, a page, a button, an intent). Default true.'),
        userInput: z.boolean().default(false).describe('The user writes or presses something. Default false.'),
        pageEvents: z.array(z.string().min(1).max(100)).default([]).describe('Page events by name.'),
      })
      .strict()
      .default({ dialogStart: true, userInput: false, pageEvents: [] })
      .describe('What cancels the timer.'),
    background: z
      .boolean()
      .default(false)
      .describe(
        'false (default): the conversation rests here until the timer fires or something moves it; true: the timer runs and the next step follows at once.',
      ),
  })
  .strict();

export const eventStep = z
  .object({
    ...base,
    type: kind('event', 'Sends an event to the page the widget is on.'),
    name: z.string().min(1).max(100).describe('The name the page\'s listener is registered for, e.g. "close-chat".'),
    payload: z.record(z.string(), z.json()).default({}).describe('String values are templates.'),
  })
  .strict();

export const clearUserDataStep = z
  .object({
    ...base,
    type: kind('clearUserData', 'Clears user-data fields (all when fields is omitted).'),
    fields: z
      .array(camelCase)
      .optional()
      .describe('Fields to clear; every user-data field when omitted. The snapshot always holds every field.'),
  })
  .strict();

export const emailStep = z
  .object({
    ...base,
    type: kind('email', 'Sends an email (SMTP_URL); a failure follows onError.'),
    to: template(1000).describe('Comma-separated addresses; templates allowed.'),
    cc: template(1000).optional().describe('Comma-separated copy addresses; templates allowed.'),
    replyTo: template(300).optional().describe('The Reply-To address; templates allowed.'),
    subject: template(500).describe('The subject; templates allowed.'),
    body: template(20_000).describe('The plain-text body; templates allowed.'),
    onError: target
      .optional()
      .describe('Where to go when the email cannot be sent (a follow-up turn); only logged when omitted.'),
  })
  .strict();

export const smsStep = z
  .object({
    ...base,
    type: kind('sms', 'Sends a text message (SMS_URL); a failure follows onError.'),
    to: template(500).describe('Comma-separated phone numbers (E.164); templates allowed.'),
    message: template(1600).describe('The text; templates allowed.'),
    link: template(2000)
      .optional()
      .describe('A URL appended to the message as a tracked link (clicks land in the URL tracker).'),
    onError: target
      .optional()
      .describe('Where to go when the SMS cannot be sent (a follow-up turn); only logged when omitted.'),
  })
  .strict();

export const nlpStep = z
  .object({
    ...base,
    type: kind('nlp', 'Waits for free text and starts the dialog of the intent it matches.'),
    prompt: template().optional().describe('Said when the step is reached; the step then waits for free text.'),
    quickReplies: z.array(quickReply).max(13).optional().describe('Suggested answers shown with the prompt.'),
    threshold: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('Lowest score an intent needs; settings.nlpThreshold when omitted.'),
    onNoMatch: target
      .optional()
      .describe('Where to go when no intent passes; the fallback text is said and the step waits again when omitted.'),
  })
  .strict();

export const faqStep = z
  .object({
    ...base,
    type: kind('faq', 'Answers the question the user types from the FAQ pairs.'),
    prompt: template().optional().describe('Said when the step is reached; the step then waits for a question.'),
    threshold: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('Lowest match score (0..1, 1 = exact); settings.faqThreshold when omitted.'),
    noMatchText: template()
      .optional()
      .describe('Said when no question is close enough; the fallback text when omitted.'),
    onNoMatch: target.optional().describe('Where to go when nothing matched; `next` when omitted.'),
  })
  .strict();

export const INTEGRATION_ON_ERROR = /^(fatal|dialog:[A-Za-z][A-Za-z0-9_-]{0,63}|flag:[a-z][A-Za-z0-9]{0,63})$/;

/**
 * A call to the customer's systems (spec 1.1–1.3, 4.3). Everything but `id`, `next`,
 * `integration` and `errorText` is the integration layer's step (docs/integrations.md); the server
 * checks those fields against the step type's JSON Schema at start-up.
 */
export const integrationStep = z
  .object({
    ...base,
    type: kind('integration', "Calls the customer's systems through an integration step type."),
    integration: z
      .string()
      .regex(/^[A-Za-z][\w-]{0,63}$/, 'must be an integration step type such as "listUserEvents"')
      .describe(
        'The integration step type: http, service, listUserEvents, createUser, sendTrackingEvent, queryDataset.',
      ),
    service: z
      .string()
      .regex(/^[A-Za-z][\w-]{0,63}$/, 'must be a service name of integrations.services')
      .optional()
      .describe('A service of integrations.services (base URL + auth) the call goes to.'),
    params: z
      .record(z.string(), z.json())
      .default({})
      .describe(
        "Static values or {{variable}} templates ({{userId}}, {{userData.email}}); coerced to the type's schema.",
      ),
    timing: z
      .enum(['sync', 'async'])
      .optional()
      .describe(
        "sync: the user waits (typing indicator) and the tree continues from the result; async: a durable job, the tree continues at once. The type's own when omitted.",
      ),
    timeoutMs: z
      .number()
      .int()
      .min(100)
      .max(30_000)
      .optional()
      .describe('Synchronous deadline in ms (5000 when omitted).'),
    onError: z
      .string()
      .regex(INTEGRATION_ON_ERROR, 'must be "fatal", "dialog:<dialogId>" or "flag:<camelCaseVariable>"')
      .default('fatal')
      .describe(
        'What a failed call does: "fatal" (the errorText as a fatal notice, the conversation ends), "dialog:<dialogId>" (go there) or "flag:<variable>" (the variable becomes true and "<variable>Error" the error kind; the tree continues and can branch on it).',
      ),
    output: camelCase.optional().describe('The variable that receives the output (after the mapping).'),
    mapping: z
      .string()
      .min(1)
      .max(4000)
      .optional()
      .describe('A JSONata expression over the output, or "@name" for a mapping the type offers (e.g. "@cards").'),
    maxAttempts: z
      .number()
      .int()
      .min(1)
      .max(20)
      .optional()
      .describe('Async only: attempts before the job is given up (6 when omitted).'),
    errorText: template().optional().describe("The fatal notice's text; a general apology when omitted."),
  })
  .strict();

export const endStep = z
  .object({ id: base.id, type: kind('end', 'Ends the dialog; the conversation rests until the user writes.') })
  .strict();

export const stepSchema = z.discriminatedUnion('type', [
  messageStep,
  inputStep,
  conditionStep,
  setStep,
  gotoStep,
  waitStep,
  eventStep,
  clearUserDataStep,
  emailStep,
  smsStep,
  nlpStep,
  faqStep,
  integrationStep,
  linkChannelsStep,
  endStep,
]);
