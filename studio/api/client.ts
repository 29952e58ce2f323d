import type { StudioAnswer, StudioBody, StudioParams, StudioQuery } from '../../shared/studio-api.ts';
import { STUDIO_API_PREFIX, STUDIO_ROUTES, type StudioRouteName } from '../../shared/studio-routes.ts';
import { t, type StringKey } from '../i18n/strings.ts';

/** The catalogue body every studio API error has. */
interface ErrorBody {
  readonly error?: {
    readonly code?: string;
    readonly message?: string;
    readonly details?: Record<string, unknown>;
    readonly requestId?: string;
  };
}

/** What a person reads for an error code; the server's own sentence is for developers (the console). */
const MESSAGES: Readonly<Record<string, StringKey>> = {
  invalid_credentials: 'errorInvalidCredentials',
  rate_limited: 'errorRateLimited',
  forbidden: 'errorForbidden',
  csrf_failed: 'errorCsrf',
  unauthenticated: 'errorUnauthenticated',
  setup_link_invalid: 'errorSetupLink',
  weak_password: 'errorWeakPassword',
  email_taken: 'errorEmailTaken',
  last_owner: 'errorLastOwner',
  not_found: 'errorNotFound',
  invalid_body: 'errorInvalidInput',
  invalid_parameter: 'errorInvalidInput',
  version_not_found: 'errorVersionNotFound',
  already_live: 'errorAlreadyLive',
  definition_invalid: 'errorDefinitionInvalid',
  invalid_move: 'errorInvalidMove',
  publish_failed: 'errorPublishFailed',
};

/** A refused or failed API call: its status and code, and a sentence for the person in the studio's language. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly requestId?: string,
    /** The server's own sentence, for developers. */
    readonly serverMessage?: string,
  ) {
    super(message);
  }
}

export function messageFor(code: string, requestId?: string): string {
  const key = MESSAGES[code];
  if (key) return t(key);
  if (code === 'internal') return t('errorUnknown', { requestId: requestId ?? '' });
  return t('errorGeneric');
}

type Listener = () => void;

/** What a call of a route sends: its path parameters, query and body, each where the map has one. */
export type StudioRequest<N extends StudioRouteName> = ([StudioParams<N>] extends [never]
  ? unknown
  : { readonly params: { readonly [K in keyof StudioParams<N>]: string } }) &
  ([StudioQuery<N>] extends [never] ? unknown : { readonly query?: StudioQuery<N> }) &
  ([StudioBody<N>] extends [never] ? unknown : { readonly body: StudioBody<N> });

/** A route's path with its parameters filled in and its query appended. */
function pathOf(name: StudioRouteName, request: { params?: Record<string, string>; query?: object }): string {
  const path = STUDIO_ROUTES[name].path.replace(/:(\w+)/g, (_, key: string) =>
    encodeURIComponent(request.params?.[key] ?? ''),
  );
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {}))
    if (value !== undefined) query.set(key, String(value));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * The studio's one way to the server: same-origin JSON, the session cookie sent by the browser,
 * and the session's CSRF token in X-CSRF-Token on every write. A 401 tells the shell (which then
 * shows the sign-in page).
 */
export class ApiClient {
  private csrfToken: string | null = null;
  private readonly signedOut: Listener[] = [];

  setCsrfToken(token: string | null): void {
    this.csrfToken = token;
  }

  onSignedOut(listener: Listener): void {
    this.signedOut.push(listener);
  }

  /**
   * Calls a route of the studio's HTTP contract (shared/studio-routes.ts) by its name, with the
   * body, path parameters and query the map declares; the answer is typed by the map.
   */
  request<N extends StudioRouteName>(
    name: N,
    ...[request]: object extends StudioRequest<N> ? [StudioRequest<N>?] : [StudioRequest<N>]
  ): Promise<StudioAnswer<N>> {
    const sent = (request ?? {}) as { params?: Record<string, string>; query?: object; body?: unknown };
    return this.call<StudioAnswer<N>>(STUDIO_ROUTES[name].method, pathOf(name, sent), sent.body);
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && method !== 'HEAD' && this.csrfToken) headers['x-csrf-token'] = this.csrfToken;
    let res: Response;
    try {
      res = await fetch(`${STUDIO_API_PREFIX}${path}`, {
        method,
        headers,
        credentials: 'same-origin',
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      console.warn('Studio: the request did not reach the server', error);
      throw new ApiError(0, 'network', t('errorNetwork'));
    }
    if (res.status === 204) return undefined as T;
    const parsed = (await res.json().catch(() => ({}))) as ErrorBody & T;
    if (res.ok) return parsed;
    const error = parsed.error ?? {};
    const code = error.code ?? 'internal';
    // The server's sentence names settings and fields: the console, not the page.
    console.warn(
      `Studio: ${method} ${path} answered ${res.status} ${code}: ${error.message ?? ''}${error.requestId ? ` (request ${error.requestId})` : ''}`,
    );
    if (res.status === 401 && code === 'unauthenticated') for (const listener of this.signedOut) listener();
    throw new ApiError(
      res.status,
      code,
      messageFor(code, error.requestId),
      error.details ?? {},
      error.requestId,
      error.message,
    );
  }
}

/** The account and CSRF token of the signed-in person. */
export type SessionInfo = StudioAnswer<'session'>;
