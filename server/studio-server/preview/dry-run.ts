import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { CallAnswer, HeldCall, PreviewActivity } from '../../../shared/preview-protocol.ts';
import type { IntegrationCallResult, IntegrationCaller } from '../../ports/integrations.ts';
import type { Mailer } from '../../ports/mailer.ts';
import type { OutboundGate, OutboundRequest, OutboundResponse } from '../../ports/outbound-gate.ts';
import type { SmsSender } from '../../ports/sms-sender.ts';
import type { HeldCalls } from './held-calls.ts';
import { maskRequest, maskResponseBody, maskText, type NamedSecret } from './mask.ts';

/**
 * Dry runs. Every outbound call of a preview passes the gate below, inside a rehearsal: the
 * step runs on the real integration layer (its templates, auth, step type code), and the first
 * call the step makes that has no answer yet is held (`HeldCalls`) and the rehearsal stopped.
 * The author answers it (a stub response, or "send for real", which sends exactly that
 * request); the step is then run again with the answers so far, until it needs no new one.
 * Waiting for the author happens between rehearsals, so no step deadline runs meanwhile.
 */

/** A rehearsal of one step: the answers known so far (by request), and the first call without one. */
interface Rehearsal {
  readonly answers: ReadonlyMap<string, ReadonlyArray<OutboundResponse | Error>>;
  readonly used: Map<string, number>;
  held?: {
    readonly request: OutboundRequest;
    readonly sendForReal: (request: OutboundRequest) => Promise<OutboundResponse>;
  };
}

const rehearsals = new AsyncLocalStorage<Rehearsal>();

/** Thrown into the integration layer to stop a rehearsal at a call that has no answer yet. */
class HeldForAuthor extends Error {
  override readonly name = 'HeldForAuthor';
  constructor() {
    super('held for the author in a preview');
  }
}

/** Calls a step makes in one go; a step calling more is a loop, not an integration. */
const MAX_CALLS_PER_STEP = 20;

/** The same request asked again in a later rehearsal gets the same answer: method, URL and body say which it is. */
function requestKey(request: OutboundRequest): string {
  const body = request.body === undefined ? '' : createHash('sha256').update(request.body).digest('hex');
  return `${request.method.toUpperCase()} ${request.url} ${body}`;
}

/** True while a rehearsal has stopped at a held call: what the integration layer logs then is no failure. */
export function rehearsalHeld(): boolean {
  return rehearsals.getStore()?.held !== undefined;
}

/** The gate of every preview's integration layer: answers from the rehearsal, or the call held. */
export const dryRunGate: OutboundGate = {
  async send(request, sendForReal) {
    const rehearsal = rehearsals.getStore();
    // Background work (a dataset's refresh) has no step and no author to ask: the live bot does it.
    if (!rehearsal)
      throw new Error('A preview makes no calls of its own outside a step; the bot in service refreshes datasets.');
    const key = requestKey(request);
    const index = rehearsal.used.get(key) ?? 0;
    const answer = rehearsal.answers.get(key)?.[index];
    if (answer !== undefined) {
      rehearsal.used.set(key, index + 1);
      if (answer instanceof Error) throw answer;
      return answer;
    }
    rehearsal.held ??= { request, sendForReal };
    throw new HeldForAuthor();
  },
};

export interface DryRunDeps {
  readonly holds: HeldCalls;
  /** The definition's secrets with their values, masked wherever a request or answer is shown. */
  readonly secrets: () => readonly NamedSecret[];
  readonly activity: (entry: PreviewActivity) => void;
  readonly now: () => number;
}

/** Runs `work` (one step's calls) in rehearsals until it needs no new answer; each new call is the author's to answer. */
export async function rehearse<T>(
  deps: DryRunDeps,
  where: { readonly step: HeldCall['step']; readonly async: boolean },
  work: () => Promise<T>,
): Promise<T> {
  const answers = new Map<string, Array<OutboundResponse | Error>>();
  for (let calls = 0; calls <= MAX_CALLS_PER_STEP; calls++) {
    const rehearsal: Rehearsal = { answers, used: new Map() };
    let result: T;
    try {
      result = await rehearsals.run(rehearsal, work);
    } catch (error) {
      if (!rehearsal.held) throw error;
    }
    const held = rehearsal.held;
    if (!held) return result!;
    const answer = await deps.holds.hold({
      kind: 'http',
      step: where.step,
      async: where.async,
      request: maskRequest(held.request, deps.secrets()),
      canSendForReal: true,
    });
    const outcome = await answered(deps, where, held, answer);
    const key = requestKey(held.request);
    answers.set(key, [...(answers.get(key) ?? []), outcome]);
  }
  throw new Error(
    `The step made more than ${MAX_CALLS_PER_STEP} calls in the preview; a step that calls this often is a loop.`,
  );
}

/** What the author's answer makes of the call: a stub response, or the real one (a failure to send is the step's failure). */
async function answered(
  deps: DryRunDeps,
  where: { readonly step: HeldCall['step'] },
  held: NonNullable<Rehearsal['held']>,
  answer: CallAnswer,
): Promise<OutboundResponse | Error> {
  const at = deps.now();
  if (answer.kind === 'stub') {
    deps.activity({ at, what: 'answered', kind: 'http', step: where.step, answer: 'stub', status: answer.status });
    return {
      status: answer.status,
      headers: { 'content-type': answer.contentType ?? 'application/json' },
      body: Buffer.from(answer.body, 'utf8'),
      url: held.request.url,
    };
  }
  try {
    const response = await held.sendForReal(held.request);
    const body = maskResponseBody(response.body, response.headers['content-type'], deps.secrets());
    deps.activity({
      at: deps.now(),
      what: 'realResponse',
      step: where.step,
      status: response.status,
      body: body.length > 2000 ? `${body.slice(0, 2000)}…` : body,
    });
    return response;
  } catch (error) {
    deps.activity({
      at: deps.now(),
      what: 'callFailed',
      step: where.step,
      message: maskText((error as Error).message, deps.secrets()),
    });
    return error as Error;
  }
}

/**
 * The preview's integration caller: the draft's own caller (the real layer behind the gate),
 * each step rehearsed until the author answered its calls. `done` hears what the step gave the
 * conversation (what a test's stub for it says).
 */
export function dryRunCaller(
  inner: IntegrationCaller,
  deps: DryRunDeps,
  done: (step: { dialogId: string; stepId: string }, result: IntegrationCallResult) => void,
): IntegrationCaller {
  return {
    async run(step, context) {
      const result = await rehearse(
        deps,
        { step: { dialogId: step.dialogId, stepId: step.stepId }, async: false },
        () => inner.run(step, context),
      );
      done(step, result);
      return result;
    },
    // An asynchronous step's call is a job of the turn: the preview runs it in the background (preview-jobs.ts,
    // runAsyncCall below) while the conversation goes on, as the live bot's job runner would.
    asyncJob(step, context) {
      return inner.asyncJob(step, context);
    },
  };
}

/** Email as a dry run: shown to the author, then skipped, failed, or sent for real through the server's mailer. */
export function dryRunMailer(real: Mailer | undefined, deps: DryRunDeps): Mailer {
  const from = real?.from ?? 'bot@preview.invalid';
  return {
    from,
    async send(mail) {
      const secrets = deps.secrets();
      const answer = await deps.holds.hold({
        kind: 'email',
        step: null,
        async: false,
        email: {
          from,
          to: [...mail.to],
          cc: [...mail.cc],
          replyTo: mail.replyTo,
          subject: maskText(mail.subject, secrets),
          body: maskText(mail.text, secrets),
        },
        canSendForReal: real !== undefined,
      });
      deps.activity({ at: deps.now(), what: 'answered', kind: 'email', step: null, answer: answer.kind });
      if (answer.kind === 'fail') throw new Error('failed on purpose in the studio preview');
      if (answer.kind === 'send' && real) return real.send(mail);
      return { messageId: 'preview' };
    },
  };
}

/** SMS as a dry run, the same way. */
export function dryRunSms(real: SmsSender | undefined, deps: DryRunDeps): SmsSender {
  return {
    provider: real?.provider ?? 'preview',
    async send(message) {
      const answer = await deps.holds.hold({
        kind: 'sms',
        step: null,
        async: false,
        sms: { to: message.to, text: maskText(message.text, deps.secrets()) },
        canSendForReal: real !== undefined,
      });
      deps.activity({ at: deps.now(), what: 'answered', kind: 'sms', step: null, answer: answer.kind });
      if (answer.kind === 'fail') throw new Error('failed on purpose in the studio preview');
      if (answer.kind === 'send' && real) await real.send(message);
    },
  };
}

/** What running an asynchronous step's job needs of the integration layer (IntegrationRuntime fits). */
export interface AsyncCallRunner {
  runJob(
    payload: Readonly<Record<string, unknown>>,
    attempt: { attempt: number; maxAttempts: number },
  ): Promise<{ readonly kind: string; readonly message: string } | undefined | void>;
}

/**
 * An asynchronous integration step's job in a preview: run once at once, in rehearsals like a
 * synchronous step, so each call it makes is held for the author (marked async) with its request
 * masked, and answered with a stub or sent for real. The conversation does not wait for it, and
 * its result does not enter the conversation (as with the live bot); the panel hears how it ended.
 * A failure the live bot would retry is not retried: the author sees it and can answer otherwise.
 */
export async function runAsyncCall(
  deps: DryRunDeps,
  runner: AsyncCallRunner,
  job: { readonly payload: Readonly<Record<string, unknown>> },
): Promise<void> {
  const origin = job.payload.origin as { dialogId?: unknown; stepId?: unknown } | undefined;
  const step =
    typeof origin?.dialogId === 'string' && typeof origin.stepId === 'string'
      ? { dialogId: origin.dialogId, stepId: origin.stepId }
      : null;
  let failure: { readonly kind: string; readonly message: string } | undefined | void;
  try {
    failure = await rehearse(deps, { step, async: true }, () =>
      runner.runJob(job.payload, { attempt: 1, maxAttempts: 1 }),
    );
  } catch (error) {
    // The preview ended while a call waited: nothing was sent, nothing to tell.
    if (error instanceof Error && error.name === 'AbandonedCall') return;
    const { kind } = error as { kind?: unknown };
    failure = { kind: typeof kind === 'string' ? kind : 'internal', message: (error as Error).message };
  }
  deps.activity({
    at: deps.now(),
    what: 'asyncDone',
    step,
    ok: !failure,
    ...(failure ? { kind: failure.kind, message: maskText(failure.message, deps.secrets()).slice(0, 500) } : {}),
  });
}
