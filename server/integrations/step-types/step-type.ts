import type { IntegrationError } from '../http/integration-error.ts';
import type { HttpResponse } from '../http/safe-http-client.ts';

export type StepLevel = 'protocol' | 'service' | 'action';
export type TimingMode = 'sync' | 'async';

/** A JSON Schema (draft 2020-12 subset ajv understands). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** The call a step type asks for, before auth and the safe client. */
export interface PreparedRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute URL, or a path resolved against the service's base URL. */
  readonly url: string;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON when defined. */
  readonly json?: unknown;
}

interface StepTypeBase {
  readonly name: string;
  readonly level: StepLevel;
  /** One sentence for people writing bot definitions. */
  readonly description: string;
  readonly paramsSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  readonly defaultTiming: TimingMode;
  /** Named JSONata mappings a step may pick with `mapping: "@name"` (e.g. `@cards` for a carousel). */
  readonly mappings?: Readonly<Record<string, string>>;
}

/** A step type that makes one HTTP call: its code decides how parameters are attached and what the answer means. */
export interface HttpStepType extends StepTypeBase {
  readonly kind: 'http';
  /** True when the call goes to a configured service (base URL + auth); false for absolute URLs. */
  readonly needsService: 'always' | 'optional';
  buildRequest(params: Record<string, unknown>): PreparedRequest;
  /**
   * Turns the answer into the step's output, before the output schema check and
   * the mapping. Returns an IntegrationError for answers that count as failures.
   */
  readOutput(response: HttpResponse): unknown;
  /** What counts as an error beyond transport failures; default: any non-2xx. */
  errorOf?(response: HttpResponse): IntegrationError | undefined;
}

/** A step type that reads a call-on-background dataset held locally. */
export interface DatasetStepType extends StepTypeBase {
  readonly kind: 'dataset';
}

/** A call a code step type makes through `ctx.request`: relative URLs resolve under the step's service. */
export type StepRequest = PreparedRequest;

/** What `ctx.request` answers: a 2xx response (anything else throws a `status` error, as built-in steps fail). */
export interface StepResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the answer is JSON, the text otherwise, null when empty. */
  readonly body: unknown;
}

/** What a code step type's `call` receives. */
export interface StepContext {
  /** The parameters after templating, checked against (and defaulted by) the type's params schema. */
  readonly params: Record<string, unknown>;
  readonly userId: string;
  /** The conversation variables (read-only copy). */
  readonly variables: Readonly<Record<string, unknown>>;
  /** One call through the product's guarded HTTP client, the service's auth applied, recorded (redacted) in the integration log. */
  request(request: StepRequest): Promise<StepResponse>;
  /**
   * Aborted when the step is over: at its `timeoutMs` (the step has then failed as a timeout)
   * or when `call` has settled. Module code cannot be stopped from outside: a module that
   * waits on something of its own (a timer, another library) should pass this signal on or
   * listen to it, or its work goes on unseen after the step has failed.
   */
  readonly signal: AbortSignal;
  /** Lines for the server log, tagged with the step type; never pass secrets. */
  readonly log: { info(message: string, fields?: Record<string, unknown>): void; warn(message: string, fields?: Record<string, unknown>): void };
}

/**
 * A step type whose code makes its own calls: a bot's module (definition `stepTypes`)
 * or an "advanced" step that makes several calls and combines them (spec 1.1).
 */
export interface CodeStepType extends StepTypeBase {
  readonly kind: 'code';
  readonly needsService: 'always' | 'optional';
  call(ctx: StepContext): Promise<unknown> | unknown;
}

export type StepType = HttpStepType | DatasetStepType | CodeStepType;
