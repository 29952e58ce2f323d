import type { Authenticator } from './authenticator.ts';
import type { HttpRequest, HttpResponse, SafeHttpClient } from '../http/safe-http-client.ts';
import { sendAndRecord, type CallRecorder } from '../http/integration-log.ts';

/**
 * One call with its credentials; after a 401 an authenticator that can renew
 * them (OAuth) gets exactly one retry with fresh ones.
 */
export async function authorizedCall(options: {
  readonly http: SafeHttpClient;
  readonly request: HttpRequest;
  readonly auth: Authenticator;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly record: CallRecorder;
  /** Told the credential values each attempt used (a step's code scrubs them from its error messages). */
  readonly used?: (secrets: readonly string[]) => void;
  /** Secrets beyond the service's that the call may carry (a step type's own, `ctx.secret`), scrubbed from its log row. */
  readonly extraSecrets?: () => readonly string[];
}): Promise<HttpResponse> {
  const { http, request, auth, variables, record, used, extraSecrets } = options;
  const attempt = async () => {
    const authorization = await auth.authorize({ variables, record });
    used?.(authorization.secrets);
    const secrets = extraSecrets ? [...authorization.secrets, ...extraSecrets()] : authorization.secrets;
    const response = await sendAndRecord(
      http,
      { ...request, headers: { ...request.headers, ...authorization.headers } },
      record,
      secrets,
    );
    return { authorization, response };
  };
  const first = await attempt();
  if (first.response.status === 401 && auth.refreshAfterUnauthorized?.(first.authorization))
    return (await attempt()).response;
  return first.response;
}
