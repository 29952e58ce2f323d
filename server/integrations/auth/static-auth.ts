import { IntegrationError } from '../http/integration-error.ts';
import type { Authenticator } from './authenticator.ts';

/** Authorization: Basic, from a username and a password secret. */
export function basicAuth(username: string, password: string): Authenticator {
  const encoded = Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
  const result = { headers: { authorization: `Basic ${encoded}` }, secrets: [password, encoded] };
  return { authorize: () => Promise.resolve(result), heldSecrets: () => result.secrets };
}

/** Authorization: Bearer with one token for the whole bot. */
export function bearerAuth(token: string): Authenticator {
  const result = { headers: { authorization: `Bearer ${token}` }, secrets: [token] };
  return { authorize: () => Promise.resolve(result), heldSecrets: () => result.secrets };
}

/** Authorization: Bearer with the user's own token, so the bot has at most that user's permissions. */
export function userBearerAuth(variable: string): Authenticator {
  return {
    authorize({ variables }) {
      const token = variables[variable];
      if (typeof token !== 'string' || token === '') {
        return Promise.reject(
          new IntegrationError(
            'auth',
            `This call needs the user's token, but the page did not pass "${variable}" when it opened the chat.`,
          ),
        );
      }
      return Promise.resolve({ headers: { authorization: `Bearer ${token}` }, secrets: [token] });
    },
    heldSecrets(variables) {
      const token = variables[variable];
      return typeof token === 'string' && token !== '' ? [token] : [];
    },
  };
}
