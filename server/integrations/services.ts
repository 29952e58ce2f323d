import type { Clock } from '../ports/clock.ts';
import type { AuthConfig } from './auth/auth-config.ts';
import type { Authenticator } from './auth/authenticator.ts';
import { createAuthenticator } from './auth/create-authenticator.ts';
import type { SafeHttpClient } from './http/safe-http-client.ts';
import type { ServiceConfig } from './settings.ts';

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
    compiled.set(name, {
      name,
      baseUrl: service.baseUrl.endsWith('/') ? service.baseUrl : `${service.baseUrl}/`,
      auth,
      ...(service.auth?.type === 'bearer-user' ? { userTokenVariable: service.auth.variable } : {}),
    });
  }
  return compiled;
}

function credentialKey(auth: AuthConfig | undefined): string | undefined {
  if (auth?.type !== 'oauth2-client-credentials') return undefined;
  return JSON.stringify([auth.tokenUrl, auth.clientId, auth.clientSecretEnv, auth.scope ?? '', auth.audience ?? '']);
}
