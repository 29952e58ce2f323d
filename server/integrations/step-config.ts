import { z } from 'zod';

const name = z.string().regex(/^[A-Za-z][\w-]{0,63}$/, 'must be a name of letters, digits, "_" or "-"');

/**
 * One integration step as a bot definition writes it. Error policy
 * interpretation is the engine's: this layer returns a classified error.
 */
export const integrationStepSchema = z
  .object({
    /** A registered step type: http, service, listUserEvents, createUser, sendTrackingEvent, queryDataset. */
    type: z.string().min(1),
    /** The configured service (base URL + auth) the call goes to. */
    service: name.optional(),
    /** Static values or `{{variable}}` templates, coerced to the type's schema. */
    params: z.record(z.string(), z.json()).default({}),
    /** Default: the type's own (sendTrackingEvent is async, the rest sync). */
    timing: z.enum(['sync', 'async']).optional(),
    /** Synchronous deadline, default 5 s; the spec wants answers within a few seconds. */
    timeoutMs: z.number().int().min(100).max(30_000).default(5000),
    /** fatal | dialog:<dialogId> | flag:<variable>. */
    onError: z
      .string()
      .regex(/^(fatal|dialog:[\w-]+|flag:[\w.-]+)$/, 'must be fatal, dialog:<dialogId> or flag:<variable>')
      .default('fatal'),
    /** Conversation variable that receives the output. */
    output: z.string().min(1).optional(),
    /** A JSONata expression over the output, or "@name" for a mapping the type offers (e.g. @cards). */
    mapping: z.string().min(1).optional(),
    /** Async only: attempts before the job is given up (exponential backoff between them). */
    maxAttempts: z.number().int().min(1).max(20).default(6),
  })
  .strict();

export type IntegrationStep = z.infer<typeof integrationStepSchema>;
export type IntegrationStepInput = z.input<typeof integrationStepSchema>;

export type ErrorPolicy =
  | { readonly kind: 'fatal' }
  | { readonly kind: 'dialog'; readonly dialogId: string }
  | { readonly kind: 'flag'; readonly variable: string };

/** The step's error policy, parsed for the engine. */
export function errorPolicyOf(step: Pick<IntegrationStep, 'onError'>): ErrorPolicy {
  const [kind, target = ''] = step.onError.split(/:(.*)/s);
  if (kind === 'dialog') return { kind, dialogId: target };
  if (kind === 'flag') return { kind, variable: target };
  return { kind: 'fatal' };
}
