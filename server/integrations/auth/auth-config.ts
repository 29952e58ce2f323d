import { z } from 'zod';

const envName = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name such as EVENTS_API_TOKEN');

/**
 * How a service or step authenticates (spec 5.2). Secrets never sit in the
 * definition: it names the environment variable that holds them.
 */
export const authConfigSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }).strict(),
  z.object({ type: z.literal('basic'), username: z.string().min(1), passwordEnv: envName }).strict(),
  /** One token for the whole bot, from a secret. */
  z.object({ type: z.literal('bearer'), tokenEnv: envName }).strict(),
  /** The token the host page passed at init (kept as the conversation variable `variable`). */
  z.object({ type: z.literal('bearer-user'), variable: z.string().min(1).default('authToken') }).strict(),
  z
    .object({
      type: z.literal('oauth2-client-credentials'),
      tokenUrl: z.url({ protocol: /^https?$/ }),
      clientId: z.string().min(1),
      clientSecretEnv: envName,
      scope: z.string().optional(),
      audience: z.string().optional(),
      /** RFC 6749 prefers HTTP Basic for the client credentials; some servers want them in the form body. */
      credentialsIn: z.enum(['header', 'body']).default('header'),
    })
    .strict(),
]);

export type AuthConfig = z.infer<typeof authConfigSchema>;
