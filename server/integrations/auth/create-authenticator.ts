import type { Clock } from '../../ports/clock.ts';
import { IntegrationConfigError } from '../http/integration-error.ts';
import type { SafeHttpClient } from '../http/safe-http-client.ts';
import type { AuthConfig } from './auth-config.ts';
import { noAuth, type Authenticator } from './authenticator.ts';
import { OAuthClientCredentials } from './oauth-client-credentials.ts';
import { basicAuth, bearerAuth, userBearerAuth } from './static-auth.ts';

export interface AuthDeps {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly http: SafeHttpClient;
  readonly clock: Clock;
}

/**
 * Builds the authenticator of a service or step at start-up. A secret's
 * environment variable that is unset or empty stops start-up with a message
 * naming it: an empty token sent silently would only fail later, and worse.
 */
export function createAuthenticator(config: AuthConfig | undefined, where: string, deps: AuthDeps): Authenticator {
  const secret = (variable: string): string => {
    const value = deps.env[variable];
    if (value === undefined || value.trim() === '') {
      throw new IntegrationConfigError(
        `${where}: the environment variable ${variable} is not set; it must hold the secret this integration authenticates with.`,
      );
    }
    return value.trim();
  };
  switch (config?.type) {
    case undefined:
    case 'none':
      return noAuth;
    case 'basic':
      return basicAuth(config.username, secret(config.passwordEnv));
    case 'bearer':
      return bearerAuth(secret(config.tokenEnv));
    case 'bearer-user':
      return userBearerAuth(config.variable);
    case 'oauth2-client-credentials':
      return new OAuthClientCredentials(
        { ...config, clientSecret: secret(config.clientSecretEnv) },
        { http: deps.http, clock: deps.clock },
      );
  }
}
