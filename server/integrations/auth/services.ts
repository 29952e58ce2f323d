import type { Clock } from '../../ports/clock.ts';
import type { AuthConfig } from './auth-config.ts';
import type { Authenticator } from './authenticator.ts';
import { createAuthenticator } from './create-authenticator.ts';
import { IntegrationConfigError } from '../http/integration-error.ts';
import type { SafeHttpClient } from '../http/safe-http-client.ts';
import type { ServiceConfig } from './service-config.ts';

export interface CompiledService {
  readonly name: string;
  /** Always ends with "/", so relative paths resolve under it. */
  readonly baseUrl: string;
  readonly auth: Authenticator;
  /** For user-scoped bearer auth: the conversation variable holding the user's token. */
  readonly userTokenVariable?: string;
}

/**
 * Builds each service's authenticator at start-up (missing secrets stop it
 * there). Services sharing one OAuth credential share one token cache, so
 * there is one token request in flight per credential, not per service.
 */
export function compileServices(
  services: Readonly<Record<string, ServiceConfig>>,
  deps: { env: Readonly<Record<string, string | undefined>>; http: SafeHttpClient; clock: Clock },
): Map<string, CompiledService> {
  const shared = new Map<string, Authenticator>();
  const compiled = new Map<string, CompiledService>();
  for (const [name, service] of Object.entries(services)) {
    const key = credentialKey(service.auth);
    let auth = key ? shared.get(key) : undefined;
    if (!auth) {
      auth = createAuthenticator(service.auth, `integrations.services.${name}.auth`, deps);
      if (key) shared.set(key, auth);
    }
    const baseUrl = resolveBaseUrl(name, service, deps.env);
    compiled.set(name, {
      name,
      baseUrl: baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`,
      auth,
      ...(service.auth?.type === 'bearer-user' ? { userTokenVariable: service.auth.variable } : {}),
    });
  }
  return compiled;
}

/** baseUrlEnv, when set, wins; a value that is not an http(s) URL stops start-up naming the variable. */
function resolveBaseUrl(
  name: string,
  service: ServiceConfig,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const value = service.baseUrlEnv === undefined ? undefined : env[service.baseUrlEnv]?.trim();
  if (!value) return service.baseUrl;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new IntegrationConfigError(
      `integrations.services.${name}.baseUrlEnv: ${service.baseUrlEnv} must be an http(s) URL such as "https://crm.example.com/api/" (got ${JSON.stringify(value.slice(0, 100))})`,
    );
  }
  return url.href;
}

function credentialKey(auth: AuthConfig | undefined): string | undefined {
  if (auth?.type !== 'oauth2-client-credentials') return undefined;
  return JSON.stringify([auth.tokenUrl, auth.clientId, auth.clientSecretEnv, auth.scope ?? '', auth.audience ?? '']);
}
