import { randomUUID } from 'node:crypto';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { Scheduler } from '../ports/scheduler.ts';
import type { NewJob, Store } from '../ports/store.ts';
import { utcDay, type UsageCounters } from '../ports/usage-counters.ts';
import { noAuth } from './auth/authenticator.ts';
import { authorizedCall } from './auth/authorized-call.ts';
import { DatasetManager } from './datasets/dataset-manager.ts';
import type { DatasetCluster } from './datasets/dataset-cluster.ts';
import {
  IntegrationConfigError,
  IntegrationError,
  isRetryable,
  STEP_CODE_ERROR_KINDS,
  type IntegrationErrorKind,
} from './http/integration-error.ts';
import type { OutboundGate } from '../ports/outbound-gate.ts';
import { GatedHttpClient } from './http/gated-http-client.ts';
import { SafeHttpClient, type HttpResponse } from './http/safe-http-client.ts';
import { integrationLogWriter, type CallRecorder } from './http/integration-log.ts';
import { prepareStep, type PreparedStep } from './prepare-step.ts';
import { scrub, secretForms } from './http/redact.ts';
import { compileServices, type CompiledService } from './auth/services.ts';
import { integrationSettingsSchema } from './settings.ts';
import type { IntegrationStepInput } from './step-config.ts';
import { lenientBody } from './http/read-body.ts';
import { BUILT_IN_STEP_TYPES, describeErrors, StepTypeRegistry } from './step-types/registry.ts';
import type { CodeStepType, HttpStepType, PreparedRequest, StepContext, StepType } from './step-contract/step-type.ts';
import { fillTemplates, type TemplateScope } from './step-types/template-params.ts';

/** Who the step runs for: the user's id, conversation variables and user data (templates read them). */
export type IntegrationContext = TemplateScope;

export interface IntegrationFailure {
  readonly kind: IntegrationErrorKind;
  /** A sentence a person can act on; never holds a secret. */
  readonly message: string;
  readonly status?: number;
}

/** What the engine gets back. Async steps answer at once with `scheduled` (the job id) and a null output. */
export type IntegrationResult =
  | { readonly ok: true; readonly output: unknown; readonly scheduled?: string }
  | { readonly ok: false; readonly error: IntegrationFailure };

export interface IntegrationRuntimeDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Durable jobs for async steps; without it async steps fail to schedule. */
  readonly scheduler?: Scheduler;
  /** Where secrets named by the definition are read from (process.env in production). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** INTEGRATION_ALLOWED_HOSTS. */
  readonly allowedHosts?: readonly string[];
  /** Counts calls and errors per step type for /metrics. */
  readonly metrics?: Metrics;
  /** The bot's own step types (definition `stepTypes`), registered beside the built-in ones. */
  readonly stepTypes?: readonly StepType[];
  /** Cluster mode: background datasets are pulled by one node and reloaded by all (datasets/dataset-cluster.ts). */
  readonly datasetCluster?: DatasetCluster;
  /** The studio's insights count each call made for a user (by status, with its latency). */
  readonly insights?: () =>
    { integrationCall(userId: string, status: number | null, durationMs: number): Promise<void> } | undefined;
  /** Daily counters step types keep (`ctx.usage`, a language model's token budget); without it such a step fails. */
  readonly usage?: UsageCounters;
  /**
   * The step types already compiled (`registryFor`): compiling every schema again costs more
   * than checking a 500-step bot, and a sixth of a server's start-up. It must hold `stepTypes`.
   */
  readonly registry?: StepTypeRegistry;
  /** Every call goes through it (a studio preview's dry runs); calls go straight out without one. */
  readonly gate?: OutboundGate;
}

const REQUEST_METHODS: readonly string[] = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
] satisfies PreparedRequest['method'][];

/** The job kind of async integration calls (server/jobs/handlers/integration.ts). */
export const INTEGRATION_JOB_KIND = 'integration';

/**
 * The integration layer's entry point: built once at start-up from the
 * definition's integration settings, then asked to run steps.
 *
 * ```ts
 * const integrations = IntegrationRuntime.create(definition.integrationSettings, deps);
 * const step = integrations.prepare(rawStep, 'dialogs[0].steps[3]'); // at load: throws IntegrationConfigError
 * const result = await integrations.run(step, { userId, variables, userData });
 * ```
 */
export class IntegrationRuntime {
  readonly registry: StepTypeRegistry;
  readonly http: SafeHttpClient;
  readonly datasets: DatasetManager;
  private readonly services: ReadonlyMap<string, CompiledService>;
  private readonly recorderFor: (userId: string) => CallRecorder;
  private readonly prepared = new WeakMap<object, PreparedStep>();

  private constructor(
    settingsInput: unknown,
    private readonly deps: IntegrationRuntimeDeps,
  ) {
    const parsed = integrationSettingsSchema.safeParse(settingsInput ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new IntegrationConfigError(
        `integrations${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'is invalid'}`,
      );
    }
    this.registry = deps.registry ?? new StepTypeRegistry([...BUILT_IN_STEP_TYPES, ...(deps.stepTypes ?? [])]);
    const httpOptions = { ...(deps.allowedHosts ? { allowedHosts: deps.allowedHosts } : {}) };
    this.http = deps.gate ? new GatedHttpClient(httpOptions, deps.gate) : new SafeHttpClient(httpOptions);
    this.services = compileServices(parsed.data.services, { env: deps.env, http: this.http, clock: deps.clock });
    this.recorderFor = integrationLogWriter(deps);
    this.datasets = new DatasetManager(parsed.data.datasets, {
      store: deps.store,
      clock: deps.clock,
      logger: deps.logger,
      http: this.http,
      services: this.services,
      record: this.recorderFor,
      ...(deps.datasetCluster ? { cluster: deps.datasetCluster } : {}),
    });
  }

  /** Validates the settings and builds services; throws IntegrationConfigError naming a missing secret or bad field. */
  static create(settings: unknown, deps: IntegrationRuntimeDeps): IntegrationRuntime {
    return new IntegrationRuntime(settings, deps);
  }

  /** Loads stored datasets and starts their refreshes. */
  start(): Promise<void> {
    return this.datasets.start();
  }

  async close(): Promise<void> {
    await this.datasets.stop();
    this.http.close();
  }

  /** Validates a step definition (call at load, so mistakes stop start-up). Cached per step object. */
  prepare(step: IntegrationStepInput | object, where = 'step'): PreparedStep {
    const cached = this.prepared.get(step);
    if (cached) return cached;
    const result = prepareStep(step, where, this.registry, this.services, this.deps.env);
    this.prepared.set(step, result);
    return result;
  }

  /** Runs a step for a user: synchronously, or by scheduling a durable job for async steps. Never throws for call failures. */
  async run(
    stepInput: IntegrationStepInput | PreparedStep,
    context: IntegrationContext,
    origin?: { readonly dialogId: string; readonly stepId: string },
  ): Promise<IntegrationResult> {
    let prepared: PreparedStep;
    try {
      prepared = 'compiled' in stepInput ? stepInput : this.prepare(stepInput);
    } catch (error) {
      return { ok: false, error: { kind: 'invalid_params', message: (error as Error).message } };
    }
    if (prepared.timing === 'async') return this.schedule(prepared, context, origin);
    return this.execute(prepared, context, true);
  }

  /**
   * Runs an async job's call; throws (an IntegrationError) when the failure is transient, so the job
   * runner retries with backoff. Answers the failure when the call failed for good without a throw.
   */
  async runJob(
    payload: Readonly<Record<string, unknown>>,
    attempt: { attempt: number; maxAttempts: number },
  ): Promise<IntegrationFailure | undefined> {
    const step = payload.step as IntegrationStepInput;
    const context = payload.context as IntegrationContext;
    const prepared = this.prepare(step, 'integration job');
    const result = await this.execute(prepared, context, false);
    if (result.ok) return undefined;
    const failure = new IntegrationError(result.error.kind, result.error.message, result.error.status);
    if (isRetryable(result.error) && attempt.attempt < attempt.maxAttempts) throw failure;
    this.deps.logger.warn(
      {
        event: 'integration_async_failed',
        stepType: prepared.step.type,
        kind: result.error.kind,
        attempt: attempt.attempt,
      },
      'an asynchronous integration call failed for good',
    );
    if (isRetryable(result.error)) throw failure; // last attempt: let the job end as dead
    return result.error;
  }

  private async schedule(
    prepared: PreparedStep,
    context: IntegrationContext,
    origin?: { readonly dialogId: string; readonly stepId: string },
  ): Promise<IntegrationResult> {
    if (!this.deps.scheduler)
      return {
        ok: false,
        error: {
          kind: 'invalid_params',
          message: 'Asynchronous steps need the job scheduler, which this server was started without.',
        },
      };
    const job = this.asyncJob(prepared, context, origin);
    await this.deps.scheduler.schedule(job);
    return { ok: true, output: null, scheduled: job.id };
  }

  /**
   * The durable job of an async step's call, not yet stored: a turn puts it in its
   * outbox (TurnCommit.jobs), so the call is scheduled exactly when the turn commits.
   * `origin`: the step that asked for it, named when the call fails for good (integration.failed).
   */
  asyncJob(
    prepared: PreparedStep,
    context: IntegrationContext,
    origin?: { readonly dialogId: string; readonly stepId: string },
  ): NewJob {
    // Parameters are filled now: the call reports the moment the user passed the step.
    // Only the variable holding a user's token (if the service needs it) travels with the job.
    const tokenVariable = prepared.service?.userTokenVariable;
    const variables =
      tokenVariable && tokenVariable in context.variables ? { [tokenVariable]: context.variables[tokenVariable] } : {};
    const params = fillTemplates(prepared.step.params, context);
    return {
      id: `integration:${randomUUID()}`,
      kind: INTEGRATION_JOB_KIND,
      payload: {
        step: { ...prepared.step, params, timing: 'sync' },
        context: { userId: context.userId, variables, userData: {} },
        ...(origin ? { origin } : {}),
      },
      runAt: this.deps.clock.now(),
      ...(prepared.step.maxAttempts === undefined ? {} : { maxAttempts: prepared.step.maxAttempts }),
    };
  }

  private async execute(
    prepared: PreparedStep,
    context: IntegrationContext,
    fillParams: boolean,
  ): Promise<IntegrationResult> {
    const { step, compiled } = prepared;
    const started = performance.now();
    const took = () => (performance.now() - started) / 1000;
    try {
      const params = structuredClone(fillParams ? fillTemplates(step.params, context) : step.params);
      if (!compiled.params(params)) {
        throw new IntegrationError(
          'invalid_params',
          `The parameters of the ${step.type} step do not fit its schema: ${describeErrors(compiled.params.errors)}.`,
        );
      }
      const type = compiled.type;
      const raw =
        type.kind === 'dataset'
          ? this.queryDataset(params as Record<string, unknown>)
          : await this.withDeadline(
              step.timeoutMs,
              type.kind === 'http'
                ? this.callHttp(prepared, type, params as Record<string, unknown>, context)
                : this.callCode(prepared, type, params as Record<string, unknown>, context),
            );
      if (!compiled.output(raw)) {
        throw new IntegrationError(
          'invalid_body',
          `The answer to the ${step.type} step does not have the expected shape: ${describeErrors(compiled.output.errors)}.`,
        );
      }
      const output = prepared.mapping ? await this.map(prepared, raw) : raw;
      this.deps.metrics?.integrationCall(callLabels(step), 'ok', { seconds: took(), status: 'ok' });
      return { ok: true, output };
    } catch (error) {
      const failure =
        error instanceof IntegrationError ? error : new IntegrationError('network', (error as Error).message);
      this.deps.metrics?.integrationCall(callLabels(step), 'error', { seconds: took(), status: failure.kind });
      this.deps.logger.warn(
        {
          event: 'integration_failed',
          stepType: step.type,
          userId: context.userId,
          kind: failure.kind,
          status: failure.status,
        },
        failure.message,
      );
      return {
        ok: false,
        error: {
          kind: failure.kind,
          message: failure.message,
          ...(failure.status === undefined ? {} : { status: failure.status }),
        },
      };
    }
  }

  private async callHttp(
    prepared: PreparedStep,
    type: HttpStepType,
    params: Record<string, unknown>,
    context: IntegrationContext,
  ): Promise<unknown> {
    const response = await this.send(prepared, type.buildRequest(params), context);
    const error = type.errorOf?.(response) ?? statusError(response, prepared.step.type);
    if (error) throw error;
    return type.readOutput(response);
  }

  /** Runs a code step type: its calls go through `send` (guarded, authorized, logged); a throw of its own is a step_code error. */
  private async callCode(
    prepared: PreparedStep,
    type: CodeStepType,
    params: Record<string, unknown>,
    context: IntegrationContext,
  ): Promise<unknown> {
    const fields = { stepType: type.name, userId: context.userId };
    // The step's timeout bounds the whole of `call`: a module still running past it (the step has
    // already failed as a timeout) must not go on calling the customer's systems.
    const deadline = performance.now() + prepared.step.timeoutMs;
    let finished = false;
    // Code cannot be stopped from outside: the signal tells a module that honours it that the step is
    // over (timed out or done), so it can stop waiting; one that ignores it only loses its late calls.
    const over = new AbortController();
    const stop = setTimeout(
      () =>
        over.abort(
          new IntegrationError('timeout', `The ${type.name} step did not finish within ${prepared.step.timeoutMs} ms.`),
        ),
      prepared.step.timeoutMs,
    );
    const secrets = new StepSecrets();
    const ctx: StepContext = {
      params,
      userId: context.userId,
      variables: structuredClone(context.variables),
      signal: over.signal,
      request: async (request) => {
        const left = Math.floor(deadline - performance.now());
        if (finished || left <= 0) {
          throw new IntegrationError(
            'timeout',
            `The ${type.name} step is over (its ${prepared.step.timeoutMs} ms have passed); it makes no more calls.`,
          );
        }
        // A JavaScript module has no compiler to catch a malformed request: say what is wrong here.
        if (!request || typeof request.url !== 'string' || !REQUEST_METHODS.includes(request.method)) {
          throw new IntegrationError(
            'invalid_params',
            `The ${type.name} step's code called request() without a method (${REQUEST_METHODS.join(', ')}) and a url.`,
          );
        }
        const response = await this.send(
          prepared,
          request,
          context,
          left,
          (values) => secrets.used(values),
          () => secrets.list(),
        );
        const refused = statusError(response, type.name);
        if (refused) throw refused;
        const body = lenientBody(response);
        return { status: response.status, headers: response.headers, body: body === '' ? null : body };
      },
      log: {
        info: (message, extra) =>
          this.deps.logger.info(
            { ...secrets.cleanFields(extra), ...fields, event: 'step_type_log' },
            secrets.clean(message),
          ),
        warn: (message, extra) =>
          this.deps.logger.warn(
            { ...secrets.cleanFields(extra), ...fields, event: 'step_type_log' },
            secrets.clean(message),
          ),
      },
      secret: (param) => this.stepSecret(type, params, param, secrets),
      redact: (value) => {
        if (typeof value === 'string' && value !== '') secrets.hide(value);
      },
      usage: (counter) => this.usageCount(type, context, counter),
    };
    try {
      return await type.call(ctx);
    } catch (error) {
      if (error instanceof IntegrationError) throw error;
      // Every credential the bot holds: any service's, the user's token, the secrets the step read.
      const held = [...this.services.values()].flatMap((service) => service.auth.heldSecrets(context.variables));
      throw codeStepFailure(error, type.name, [...secrets.list(), ...held]);
    } finally {
      finished = true;
      clearTimeout(stop);
      if (!over.signal.aborted) over.abort(new IntegrationError('timeout', `The ${type.name} step is over.`));
    }
  }

  /** The value of a secret a code step's param names; hidden from everything its code says from then on. */
  private stepSecret(
    type: CodeStepType,
    params: Record<string, unknown>,
    param: string,
    secrets: StepSecrets,
  ): string | undefined {
    if (!type.secretParams.includes(param)) {
      throw new IntegrationError(
        'invalid_params',
        `The ${type.name} step's code asked for the secret of "${param}", which its type does not list in "secrets".`,
      );
    }
    const name = params[param];
    if (name === undefined) return undefined;
    const value = typeof name === 'string' ? this.deps.env[name]?.trim() : undefined;
    if (!value)
      throw new IntegrationError(
        'auth',
        `The secret the ${type.name} step names in "${param}" is not set any more; set it again.`,
      );
    secrets.hide(value);
    return value;
  }

  /** A daily count a code step keeps per user, in the usage counters. */
  private usageCount(
    type: CodeStepType,
    context: IntegrationContext,
    counter: string,
  ): ReturnType<StepContext['usage']> {
    const usage = this.deps.usage;
    if (!usage)
      throw new IntegrationError(
        'invalid_params',
        `The ${type.name} step keeps a daily count, and this server was started without usage counters.`,
      );
    const key = () => ({
      counter: `${type.name}:${counter}`,
      userId: context.userId,
      day: utcDay(this.deps.clock.now()),
    });
    return { read: () => usage.readUsage(key()), add: (amount) => usage.addUsage(key(), amount) };
  }

  /** One call to the step's service (or an absolute URL), with its auth, through the guarded client, recorded in the integration log. */
  private async send(
    prepared: PreparedStep,
    request: PreparedRequest,
    context: IntegrationContext,
    timeoutMs = prepared.step.timeoutMs,
    used?: (secrets: readonly string[]) => void,
    extraSecrets?: () => readonly string[],
  ): Promise<HttpResponse> {
    const url = this.resolveUrl(request.url, prepared.service);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      for (const item of Array.isArray(value) ? value : [value])
        if (item !== undefined && item !== null) url.searchParams.append(name, String(item));
    }
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    const body =
      request.method === 'GET'
        ? undefined
        : request.form !== undefined
          ? new URLSearchParams(request.form).toString()
          : request.json !== undefined
            ? JSON.stringify(request.json)
            : undefined;
    // A type may name its own (Slack asks for "application/json; charset=utf-8").
    if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['content-type'] = request.form !== undefined ? 'application/x-www-form-urlencoded' : 'application/json';
    }
    return authorizedCall({
      http: this.http,
      request: { url: url.href, method: request.method, headers, ...(body !== undefined ? { body } : {}), timeoutMs },
      auth: prepared.service?.auth ?? noAuth,
      variables: context.variables,
      record: this.recorderFor(context.userId),
      ...(used ? { used } : {}),
      ...(extraSecrets ? { extraSecrets } : {}),
    });
  }

  private resolveUrl(target: string, service: CompiledService | undefined): URL {
    let url: URL | undefined;
    try {
      if (/^https?:\/\//i.test(target)) url = new URL(target);
      else if (service) url = new URL(target.replace(/^\/+/, ''), service.baseUrl);
    } catch {
      // fall through to the explanation below
    }
    if (url && service && url.origin !== new URL(service.baseUrl).origin) {
      // The service's credentials must never travel to another host, whatever a template filled in.
      throw new IntegrationError(
        'invalid_params',
        `The address ${url.origin} is not the ${service.name} service's (${new URL(service.baseUrl).origin}); a step with a service calls that service only.`,
      );
    }
    if (url) return url;
    throw new IntegrationError(
      'invalid_params',
      `"${target.slice(0, 200)}" is not an absolute http(s) URL, and the step names no service to resolve it under.`,
    );
  }

  private queryDataset(params: Record<string, unknown>): unknown[] {
    const name = params.dataset as string;
    if (!this.datasets.has(name))
      throw new IntegrationError('invalid_params', `There is no background dataset named "${name}".`);
    const near =
      typeof params.lat === 'number' && typeof params.lon === 'number' && typeof params.radiusKm === 'number'
        ? { lat: params.lat, lon: params.lon, radiusKm: params.radiusKm }
        : undefined;
    return this.datasets
      .query(name, { tags: params.tags as string[], limit: params.limit as number, ...(near ? { near } : {}) })
      .map(({ row, distanceKm }) => ({
        ...row.data,
        id: row.id,
        ...(distanceKm === undefined ? {} : { distanceKm: Math.round(distanceKm * 1000) / 1000 }),
      }));
  }

  private async map(prepared: PreparedStep, raw: unknown): Promise<unknown> {
    try {
      return await prepared.mapping!(raw);
    } catch (error) {
      throw new IntegrationError(
        'invalid_body',
        `The mapping of the ${prepared.step.type} step failed on the answer: ${(error as { message?: string }).message ?? String(error)}`,
      );
    }
  }

  private withDeadline<T>(timeoutMs: number, work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new IntegrationError('timeout', `The step did not finish within ${timeoutMs} ms.`)),
        timeoutMs + 50,
      );
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  }
}

/** The metric labels of a step's calls: its type and its service ("none" for a type that calls none). */
function callLabels(step: { readonly type: string; readonly service?: string | undefined }): {
  step: string;
  service: string;
} {
  return { step: step.type, service: step.service ?? 'none' };
}

/** The IntegrationError for an answer outside 2xx, or undefined. */
function statusError(response: { readonly status: number; readonly url: string }, step: string) {
  return response.status < 200 || response.status > 299
    ? new IntegrationError(
        'status',
        `${new URL(response.url).host} answered ${response.status} to the ${step} step.`,
        response.status,
      )
    : undefined;
}

/** The credentials a code step's calls used and the secrets it read, scrubbed from anything its code says. */
class StepSecrets {
  readonly #values = new Set<string>();

  used(values: readonly string[]): void {
    values.forEach((value) => this.#values.add(value));
  }

  /** A secret the step read or asked to hide, in every form it may be written in. */
  hide(value: string): void {
    secretForms(value).forEach((form) => this.#values.add(form));
  }

  list(): string[] {
    return [...this.#values];
  }

  clean(text: string): string {
    return scrub(text, this.list());
  }

  cleanFields(extra: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    return extra && (JSON.parse(this.clean(JSON.stringify(extra))) as Record<string, unknown>);
  }
}

/**
 * What a code step's own throw becomes: one of the kinds a module may name (with its status), else step_code. The
 * message is the module's own and may quote anything it read (an answer echoing a token, the environment): every
 * credential the bot holds is scrubbed from it before it reaches a log or the dialog.
 */
function codeStepFailure(error: unknown, step: string, secrets: readonly string[]): IntegrationError {
  const message = scrub(String((error as Error)?.message ?? error), [...secrets]);
  const { kind, status } = (error ?? {}) as { kind?: unknown; status?: unknown };
  if (typeof kind === 'string' && STEP_CODE_ERROR_KINDS.includes(kind as IntegrationErrorKind)) {
    return new IntegrationError(
      kind as IntegrationErrorKind,
      `The ${step} step failed: ${message}`,
      typeof status === 'number' ? status : undefined,
    );
  }
  return new IntegrationError('step_code', `The ${step} step failed: ${message}`);
}
