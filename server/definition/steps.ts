import { z } from 'zod';
import { button, camelCase, duration, envName, id, quickReply, saveTarget, target, template } from './common.ts';

/** One schema per step kind. The engine has one handler per kind (server/engine/steps/). */

const base = {
  id,
  /** Step to run next in the same dialog; the following step when omitted. */
  next: id.optional(),
};

const card = z
  .object({
    title: template(200),
    subtitle: template(500).optional(),
    imageUrl: template(2000).optional(),
    imageAlt: z.string().max(300).optional(),
    buttons: z.array(button).max(5).optional(),
  })
  .strict();

export const messageStep = z
  .object({
    ...base,
    type: z.literal('message'),
    /** Text with {{variable}} templates and the safe markdown subset (**bold**, *italic*, `code`, [links](https://…)). */
    text: template().optional(),
    image: z.object({ url: template(2000), alt: z.string().max(300) }).strict().optional(),
    buttons: z.array(button).max(10).optional(),
    quickReplies: z.array(quickReply).max(13).optional(),
    cards: z.array(card).min(1).max(10).optional(),
    /**
     * A carousel built at run time from a variable holding a list of cards
     * ({title, subtitle?, imageUrl?, imageAlt?, buttons?}), e.g. an integration step's output
     * mapped with "@cards". Dots reach inside objects. At most 10 cards are shown.
     */
    cardsFrom: z.string().regex(/^[A-Za-z_]\w*(\.\w+)*$/, 'must be a variable name, dots allowed: "eventCards"').optional(),
    /** Said instead of the carousel when the cardsFrom variable holds no cards. */
    noCardsText: template().optional(),
  })
  .strict();

export const INPUT_TYPES = ['text', 'number', 'email', 'phone', 'choice', 'regex'] as const;

const choice = z
  .object({
    label: z.string().min(1).max(100),
    /** What is saved and matched; the label when omitted. */
    value: z.string().min(1).max(1000).optional(),
    /** Where this answer leads; the step's `next` when omitted. */
    then: target.optional(),
  })
  .strict();

export const inputStep = z
  .object({
    ...base,
    type: z.literal('input'),
    prompt: template(),
    inputType: z.enum(INPUT_TYPES).default('text'),
    /** For inputType "regex": the answer must match this (JavaScript syntax, whole answer). */
    pattern: z.string().min(1).max(500).optional(),
    /** For inputType "number": inclusive bounds. */
    min: z.number().optional(),
    max: z.number().optional(),
    /** For inputType "choice": shown as quick replies; typed text matches a label or value, case-insensitively. */
    choices: z.array(choice).min(1).max(13).optional(),
    /** Said when an answer fails validation; the prompt when omitted. */
    retryPrompt: template().optional(),
    maxRetries: z.number().int().min(0).max(20).default(3),
    /** Where to go when the retries are used up; the dialog ends with the fallback text when omitted. */
    onMaxRetries: target.optional(),
    saveTo: saveTarget.optional(),
    quickReplies: z.array(quickReply).max(13).optional(),
  })
  .strict();

export const CONDITION_OPS = ['equals', 'notEquals', 'empty', 'notEmpty', 'greater', 'less', 'contains', 'matches', 'in'] as const;

const condition = z
  .object({
    /** A variable or user-data field; dots reach inside objects, e.g. "triggerData.status". */
    variable: z.string().regex(/^[A-Za-z_]\w*(\.\w+)*$/, 'must be a variable name, dots allowed: "triggerData.status"'),
    op: z.enum(CONDITION_OPS),
    /** Not used by empty / notEmpty; a list for "in"; a regex source for "matches". */
    value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number(), z.boolean()]))]).optional(),
  })
  .strict();

export const conditionStep = z
  .object({
    ...base,
    type: z.literal('condition'),
    /** Tried in order; the first whose conditions all hold wins. */
    branches: z
      .array(z.object({ when: z.union([condition, z.array(condition).min(1)]), then: target }).strict())
      .min(1),
    /** Where to go when no branch holds; `next` (or the following step) when omitted. */
    else: target.optional(),
  })
  .strict();

export const SET_OPS = ['set', 'unset', 'append'] as const;

export const setStep = z
  .object({
    ...base,
    type: z.literal('set'),
    actions: z
      .array(
        z
          .object({
            op: z.enum(SET_OPS),
            /** Exactly one of variable / userData. */
            variable: camelCase.optional(),
            userData: camelCase.optional(),
            /** A literal value… */
            value: z.json().optional(),
            /** …or a template rendered to text. */
            template: template().optional(),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

export const gotoStep = z
  .object({
    id,
    type: z.literal('goto'),
    dialog: id,
    step: id.optional(),
  })
  .strict();

export const waitStep = z
  .object({
    ...base,
    type: z.literal('wait'),
    /** How long to wait, e.g. "10m". */
    duration,
    /** An environment variable that, when set, replaces `duration` (e.g. a short timeout for the demo and tests). */
    durationEnv: envName.optional(),
    /** Where the conversation goes when the time is up. */
    then: target,
    cancelOn: z
      .object({
        /** Another dialog starts for the user (a trigger, a page, a button, an intent). Default true. */
        dialogStart: z.boolean().default(true),
        /** The user writes or presses something. Default false. */
        userInput: z.boolean().default(false),
        /** Page events by name. */
        pageEvents: z.array(z.string().min(1).max(100)).default([]),
      })
      .strict()
      .default({ dialogStart: true, userInput: false, pageEvents: [] }),
    /** false (default): the conversation rests here until the timer fires or something moves it; true: the timer runs and the next step follows at once. */
    background: z.boolean().default(false),
  })
  .strict();

export const eventStep = z
  .object({
    ...base,
    type: z.literal('event'),
    /** The name the page's listener is registered for, e.g. "close-chat". */
    name: z.string().min(1).max(100),
    /** String values are templates. */
    payload: z.record(z.string(), z.json()).default({}),
  })
  .strict();

export const clearUserDataStep = z
  .object({
    ...base,
    type: z.literal('clearUserData'),
    /** Fields to clear; every user-data field when omitted. The snapshot always holds every field. */
    fields: z.array(camelCase).optional(),
  })
  .strict();

export const emailStep = z
  .object({
    ...base,
    type: z.literal('email'),
    /** Comma-separated addresses; templates allowed. */
    to: template(1000),
    cc: template(1000).optional(),
    replyTo: template(300).optional(),
    subject: template(500),
    body: template(20_000),
    /** Where to go when the email cannot be sent (a follow-up turn); only logged when omitted. */
    onError: target.optional(),
  })
  .strict();

export const smsStep = z
  .object({
    ...base,
    type: z.literal('sms'),
    /** Comma-separated phone numbers (E.164); templates allowed. */
    to: template(500),
    message: template(1600),
    /** A URL appended to the message as a tracked link (clicks land in the URL tracker). */
    link: template(2000).optional(),
    onError: target.optional(),
  })
  .strict();

export const nlpStep = z
  .object({
    ...base,
    type: z.literal('nlp'),
    /** Said when the step is reached; the step then waits for free text. */
    prompt: template().optional(),
    quickReplies: z.array(quickReply).max(13).optional(),
    /** Lowest score an intent needs; settings.nlpThreshold when omitted. */
    threshold: z.number().min(0).max(1).optional(),
    /** Where to go when no intent passes; the fallback text is said and the step waits again when omitted. */
    onNoMatch: target.optional(),
  })
  .strict();

export const faqStep = z
  .object({
    ...base,
    type: z.literal('faq'),
    prompt: template().optional(),
    threshold: z.number().min(0).max(1).optional(),
    /** Said when no question is close enough; the fallback text when omitted. */
    noMatchText: template().optional(),
    /** Where to go when nothing matched; `next` when omitted. */
    onNoMatch: target.optional(),
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
    type: z.literal('integration'),
    /** The integration step type: http, service, listUserEvents, createUser, sendTrackingEvent, queryDataset. */
    integration: z.string().regex(/^[A-Za-z][\w-]{0,63}$/, 'must be an integration step type such as "listUserEvents"'),
    /** A service of integrations.services (base URL + auth) the call goes to. */
    service: z.string().regex(/^[A-Za-z][\w-]{0,63}$/, 'must be a service name of integrations.services').optional(),
    /** Static values or {{variable}} templates ({{userId}}, {{userData.email}}); coerced to the type's schema. */
    params: z.record(z.string(), z.json()).default({}),
    /** sync: the user waits (typing indicator) and the tree continues from the result; async: a durable job, the tree continues at once. The type's own when omitted. */
    timing: z.enum(['sync', 'async']).optional(),
    /** Synchronous deadline in ms (5000 when omitted). */
    timeoutMs: z.number().int().min(100).max(30_000).optional(),
    /**
     * What a failed call does: "fatal" (the errorText as a fatal notice, the conversation ends),
     * "dialog:<dialogId>" (go there) or "flag:<variable>" (the variable becomes true and
     * "<variable>Error" the error kind; the tree continues and can branch on it).
     */
    onError: z.string().regex(INTEGRATION_ON_ERROR, 'must be "fatal", "dialog:<dialogId>" or "flag:<camelCaseVariable>"').default('fatal'),
    /** The variable that receives the output (after the mapping). */
    output: camelCase.optional(),
    /** A JSONata expression over the output, or "@name" for a mapping the type offers (e.g. "@cards"). */
    mapping: z.string().min(1).max(4000).optional(),
    /** Async only: attempts before the job is given up (6 when omitted). */
    maxAttempts: z.number().int().min(1).max(20).optional(),
    /** The fatal notice's text; a general apology when omitted. */
    errorText: template().optional(),
  })
  .strict();

export const endStep = z.object({ id, type: z.literal('end') }).strict();

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
  endStep,
]);
