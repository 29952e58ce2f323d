import { z } from 'zod';

/**
 * The people side of the studio's HTTP contract: the fields of sign-in, setup links, accounts,
 * tokens and secrets, and the answers of those routes, as zod schemas. The map (studio-api.ts)
 * names them per route; the server checks its answers against them in test and development; the
 * OpenAPI document describes them from them (an `id` is the component's name there).
 */

/** The studio's roles, from most to least able (server/ports/roles.ts says what each may do). */
export const STUDIO_ROLES = ['owner', 'editor', 'analyst', 'viewer'] as const;
export const MAX_PASSWORD = 256;
/** An environment-variable name, as the definition names secrets (`tokenEnv: "CRM_TOKEN"`). */
export const SECRET_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
export const MAX_SECRET_BYTES = 16 * 1024;

// ---- What comes in.

export const emailField = z
  .string()
  .trim()
  .min(3, 'give an email address')
  .max(254, 'an email address has at most 254 characters')
  .regex(/^[^\s@]+@[^\s@]+$/, 'give an email address such as ana@example.com');
export const nameField = z
  .string()
  .trim()
  .min(1, 'give a name')
  .max(100, 'a name has at most 100 characters')
  .regex(/^[^\p{Cc}]*$/u, 'a name has no control characters')
  // The same rule in words a JSON Schema tool can generate from (no \p{…} classes), trimmed text not empty.
  .meta({
    pattern:
      '^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u001f\\u007f-\\u009f]*$',
  });
export const passwordField = z
  .string()
  .min(1, 'give a password')
  .max(MAX_PASSWORD, `a password has at most ${MAX_PASSWORD} characters`);
export const setupTokenField = z
  .string()
  .min(20)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'not a setup token');
export const roleField = z.enum(STUDIO_ROLES, { message: `a role is one of ${STUDIO_ROLES.join(', ')}` });
/** A handle of 24 hex digits (a session's, an invitation's). */
export const handle = (what: string) => z.string().regex(/^[0-9a-f]{24}$/, `not ${what}`);
/** An account's or a token's id. */
export const idField = (what: string) => z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, `not ${what}`);
export const secretNameField = z
  .string()
  .regex(
    SECRET_NAME,
    'a secret is named like an environment variable: capital letters, digits and _, such as CRM_TOKEN',
  );
export const secretValueField = z
  .string()
  .min(1, 'give the secret a value')
  .refine(
    (value) => new TextEncoder().encode(value).length <= MAX_SECRET_BYTES,
    `a secret holds at most ${MAX_SECRET_BYTES / 1024} KiB`,
  )
  // The bound is in bytes, which a schema cannot count: the document says the characters that surely fit.
  .meta({ maxLength: MAX_SECRET_BYTES / 4 });
/** UNIX seconds, as the management API's exports take them. */
export const secondsField = z
  .string()
  .regex(/^\d{1,11}$/, 'must be whole UNIX seconds')
  .transform(Number)
  .meta({ type: 'integer', minimum: 0, maximum: 99_999_999_999, pattern: undefined });

// ---- What goes out.

// An ISO time as Date.toISOString writes it; the document says date-time, without zod's long pattern for it.
export const isoTime = z.iso.datetime().meta({ pattern: undefined });
const role = z.enum(STUDIO_ROLES);

export const signInOptions = z.strictObject({
  password: z.boolean(),
  singleSignOn: z.strictObject({ label: z.string() }).nullable(),
  signedIn: z
    .boolean()
    .meta({ description: 'The browser holds a session already (so the page need not provoke a 401).' }),
});

export const sessionInfo = z
  .strictObject({
    account: z.strictObject({ id: z.string(), email: z.string(), name: z.string(), role }),
    csrfToken: z.string().nullable().meta({
      description: 'Send it as X-CSRF-Token on every write with the session cookie; null for an API token caller.',
    }),
    expiresAt: isoTime.nullable(),
  })
  .meta({ id: 'StudioSession' });

export const setupLinkInfo = z.strictObject({ role, email: z.string().nullable(), existing: z.boolean() });

export const sessionsEnded = z.strictObject({ ended: z.int().min(0), tokensEnded: z.int().min(0) });

export const sessionList = z.array(
  z.strictObject({
    id: z.string(),
    current: z.boolean(),
    createdAt: isoTime,
    lastSeenAt: isoTime,
    expiresAt: isoTime,
    ip: z.string(),
    userAgent: z.string(),
    method: z.string(),
  }),
);

const account = z
  .strictObject({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role,
    password: z.boolean(),
    singleSignOn: z.boolean(),
    createdAt: isoTime,
  })
  .meta({ id: 'StudioAccount' });
export { account as accountView };

export const accountList = z.strictObject({
  accounts: z.array(account),
  invitations: z.array(
    z.strictObject({
      id: z.string(),
      role,
      email: z.string().nullable(),
      createdAt: z.int(),
      expiresAt: z.int(),
    }),
  ),
});

/** The one-time setup link, shown to the owner once to pass on. */
export const invitation = z.strictObject({ email: z.string().nullable(), role, link: z.string(), expiresAt: isoTime });

const token = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    createdAt: isoTime,
    expiresAt: isoTime.nullable(),
    lastUsedAt: isoTime.nullable(),
  })
  .meta({ id: 'StudioToken' });
export const tokenList = z.array(token);
/** The token itself is in this answer and nowhere else, ever. */
export const createdToken = token.extend({ token: z.string() }).meta({ id: 'StudioCreatedToken' });

const secretFields = {
  name: z.string(),
  fromEnvironment: z
    .boolean()
    .meta({ description: 'An environment variable of this name is set: it wins over the studio.' }),
  set: z.boolean().meta({ description: 'Set in the studio.' }),
};
export const secretList = z.array(
  z
    .strictObject({
      ...secretFields,
      usedBy: z.array(z.string()).meta({ description: 'Where the definition names it.' }),
      updatedAt: isoTime.nullable().optional().meta({ description: 'Owners only.' }),
      updatedBy: z.string().nullable().optional().meta({ description: 'Owners only.' }),
    })
    .meta({ id: 'StudioSecret' }),
);
/** A secret's status (never its value), and whether the bot was put in service again with it. */
export const secretChanged = z.strictObject({ ...secretFields, botReloaded: z.boolean() });

export const auditPage = z.strictObject({
  entries: z.array(
    z.strictObject({
      id: z.string(),
      timestamp: isoTime,
      at: z.int(),
      actor: z.strictObject({
        kind: z.enum(['account', 'token', 'file', 'system', 'key']),
        accountId: z.string().optional(),
        email: z.string().optional(),
      }),
      ip: z.string().optional(),
      action: z.string(),
      target: z.string().optional(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  nextCursor: z.string().nullable(),
});
