import { z } from 'zod';

const envName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name such as EVENTS_API_TOKEN');

/**
 * How a service or step authenticates (spec 5.2). Secrets never sit in the
 * definition: it names the environment variable that holds them.
 */
export const authConfigSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none').describe('No sign-in') }).strict(),
  z
    .object({
      type: z.literal('basic').describe('User name and password (HTTP Basic)'),
      username: z.string().min(1).describe('The user name the service knows.'),
      passwordEnv: envName.describe('The secret holding the password.'),
    })
    .strict(),
  /** One token for the whole bot, from a secret. */
  z
    .object({
      type: z.literal('bearer').describe('A Bearer token from a secret'),
      tokenEnv: envName.describe('The secret holding the token, sent as "Authorization: Bearer …".'),
    })
    .strict(),
  /** The token the host page passed at init (kept as the conversation variable `variable`). */
  z
    .object({
      type: z.literal('bearer-user').describe("The visitor's own token, passed by the web page"),
      variable: z
        .string()
        .min(1)
        .default('authToken')
        .describe("The conversation variable the page's token is kept in."),
    })
    .strict(),
  z
    .object({
      type: z.literal('oauth2-client-credentials').describe('OAuth 2 client credentials'),
      tokenUrl: z.url({ protocol: /^https?$/ }).describe('Where the service hands out access tokens.'),
      clientId: z.string().min(1).describe('The client id the service gave this bot.'),
      clientSecretEnv: envName.describe('The secret holding the client secret.'),
      scope: z.string().optional().describe('The scopes to ask for, separated by spaces.'),
      audience: z.string().optional().describe('The API the token is for, when the service asks for one.'),
      /** RFC 6749 prefers HTTP Basic for the client credentials; some servers want them in the form body. */
      credentialsIn: z
        .enum(['header', 'body'])
        .default('header')
        .describe('Where the client id and secret go: the Authorization header (the standard) or the form body.'),
    })
    .strict(),
]);

export type AuthConfig = z.infer<typeof authConfigSchema>;
