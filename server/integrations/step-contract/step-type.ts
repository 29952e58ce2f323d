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
  /** Sent as application/x-www-form-urlencoded when defined (an OAuth token request); not with `json`. */
  readonly form?: Readonly<Record<string, string>>;
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
  /** Lines for the server log, tagged with the step type; never pass secrets (the ones `secret` gave are scrubbed anyway). */
  readonly log: {
    info(message: string, fields?: Record<string, unknown>): void;
    warn(message: string, fields?: Record<string, unknown>): void;
  };
  /**
   * The value of the secret that the parameter `param` names (a parameter the type lists in
   * `secrets`: its value in the definition is the secret's name, e.g. `"tokenSecret": "SLACK_BOT_TOKEN"`),
   * read at this call from the bot's secrets (the environment); undefined when the step leaves the
   * parameter out. From then on the value (and its URL-encoded, JSON-escaped and, for a URL, path
   * forms) is scrubbed from this step's integration log rows, log lines and error messages.
   * Asking for a parameter the type does not list in `secrets` throws.
   */
  secret(param: string): string | undefined;
  /**
   * Treats a value made from a secret as one (a Basic credential, a signed assertion, an access
   * token): scrubbed from this step's integration log rows, log lines and error messages from now on.
   */
  redact(value: string): void;
  /**
   * Today's counter named `counter` (UTC day) of this step type for this user, kept by the store:
   * for a daily budget. `read` answers the total so far; `add` adds and answers the new total.
   */
  usage(counter: string): { read(): Promise<number>; add(amount: number): Promise<number> };
}

/**
 * A step type whose code makes its own calls: a bot's module (definition `stepTypes`)
 * or an "advanced" step that makes several calls and combines them (spec 1.1).
 */
export interface CodeStepType extends StepTypeBase {
  readonly kind: 'code';
  readonly needsService: 'always' | 'optional';
  /** Parameters whose value names a secret (read with `ctx.secret`): written as they are, and the secret must be set. */
  readonly secretParams: readonly string[];
  /** Parameters written as they are, never `{{templates}}`: addresses the secrets are sent to, so no variable can redirect them. */
  readonly fixedParams: readonly string[];
  call(ctx: StepContext): Promise<unknown> | unknown;
}

export type StepType = HttpStepType | DatasetStepType | CodeStepType;
