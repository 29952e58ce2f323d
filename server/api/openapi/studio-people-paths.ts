/**
 * The people side of the studio's API in the OpenAPI document: sign-in, setup links, sessions,
 * accounts, API tokens, secrets and the audit trail (routes in server/studio-server/http/*-routes.ts).
 * Open routes (sign-in, setup links, single sign-on) carry no security; every other needs a studio
 * session (cookie, with the CSRF header on writes) or an account's API token, and names its role.
 */

/**
 * The studio's own bounds (server/studio-server/accounts/passwords.ts, server/studio-server/secrets/secrets-room.ts),
 * written out because the API adapter does not import the studio's; the OpenAPI test holds them equal.
 */
export const DOCUMENTED_MAX_PASSWORD = 256;
export const DOCUMENTED_MAX_SECRET_BYTES = 16 * 1024;

type Obj = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Obj, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(ref('Error'), description);
const ISO = { type: 'string', format: 'date-time' };
const ROLE = { type: 'string', enum: ['owner', 'editor', 'analyst', 'viewer'] };
const EMAIL = { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' };
const NAME = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]*\\S[^\\u0000-\\u001f\\u007f-\\u009f]*$',
};
const PASSWORD = { type: 'string', minLength: 1, maxLength: DOCUMENTED_MAX_PASSWORD };
const ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' };
const HANDLE = { type: 'string', pattern: '^[0-9a-f]{24}$' };
const SECRET_NAME = { type: 'string', pattern: '^[A-Z_][A-Z0-9_]{0,127}$' };
const SETUP_TOKEN = { type: 'string', minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' };
const security = [{ studioSession: [] }, { studioToken: [] }];

/** The catalogue codes the people side answers with, beyond the product's common ones. */
export const STUDIO_PEOPLE_ERROR_CODES = [
  'invalid_credentials',
  'weak_password',
  'setup_link_invalid',
  'email_taken',
  'last_owner',
  'own_account',
  'too_many_tokens',
  'sso_failed',
  'sso_unavailable',
] as const;

const guarded = (roles: string): Obj => ({
  '401': error('unauthenticated: no valid session cookie or API token.'),
  '403': error(
    `forbidden: needs ${roles} (or csrf_failed: a cookie caller's write without the CSRF token or from another origin).`,
  ),
  '500': error('internal: something failed on the server; the body names a request id.'),
});
const bodyErrors = {
  '400': error(
    'invalid_body: not JSON, a missing or bad field, an unknown field, or nested too deep; details.path names the field.',
  ),
  '413': error('payload_too_large: the body is over its bound.'),
  '415': error('unsupported_media_type: send application/json, uncompressed.'),
};
const body = (schema: Obj) => ({ required: true, content: { 'application/json': { schema } } });
const op = (operationId: string, summary: string, extra: Obj): Obj => ({
  operationId,
  summary,
  tags: ['Studio: people'],
  security,
  ...extra,
});

export function studioPeopleSchemas(): Obj {
  return {
    StudioSession: {
      type: 'object',
      required: ['account', 'csrfToken', 'expiresAt'],
      properties: {
        account: {
          type: 'object',
          required: ['id', 'email', 'name', 'role'],
          properties: { id: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' }, role: ROLE },
        },
        csrfToken: {
          type: ['string', 'null'],
          description: 'Send it as X-CSRF-Token on every write with the session cookie; null for an API token caller.',
        },
        expiresAt: { type: ['string', 'null'], format: 'date-time' },
      },
    },
    StudioAccount: {
      type: 'object',
      required: ['id', 'email', 'name', 'role', 'password', 'singleSignOn', 'createdAt'],
      properties: {
        id: { type: 'string' },
        email: { type: 'string' },
        name: { type: 'string' },
        role: ROLE,
        password: { type: 'boolean' },
        singleSignOn: { type: 'boolean' },
        createdAt: ISO,
      },
    },
    StudioToken: {
      type: 'object',
      required: ['id', 'name', 'createdAt', 'expiresAt', 'lastUsedAt'],
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        createdAt: ISO,
        expiresAt: { type: ['string', 'null'], format: 'date-time' },
        lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
      },
    },
    StudioSecret: {
      type: 'object',
      required: ['name', 'set', 'fromEnvironment', 'usedBy'],
      properties: {
        name: { type: 'string' },
        set: { type: 'boolean', description: 'Set in the studio.' },
        fromEnvironment: {
          type: 'boolean',
          description: 'An environment variable of this name is set: it wins over the studio.',
        },
        usedBy: { type: 'array', items: { type: 'string' }, description: 'Where the definition names it.' },
        updatedAt: { type: ['string', 'null'], format: 'date-time', description: 'Owners only.' },
        updatedBy: { type: ['string', 'null'], description: 'Owners only.' },
      },
    },
  };
}

export function studioPeoplePaths(): Obj {
  const secretChange = json(
    {
      type: 'object',
      required: ['name', 'set', 'fromEnvironment', 'botReloaded'],
      properties: {
        name: { type: 'string' },
        set: { type: 'boolean' },
        fromEnvironment: { type: 'boolean' },
        botReloaded: { type: 'boolean' },
      },
    },
    "The secret's status (never its value), and whether the bot was put in service again with it.",
  );
  return {
    '/studio/api/sign-in-options': {
      get: op('signInOptions', 'How the sign-in page offers sign-in', {
        security: [],
        responses: {
          '200': json(
            {
              type: 'object',
              required: ['password', 'singleSignOn', 'signedIn'],
              properties: {
                password: { type: 'boolean' },
                singleSignOn: { type: ['object', 'null'] },
                signedIn: { type: 'boolean' },
              },
            },
            'Sign-in methods, and whether this browser is signed in.',
          ),
        },
      }),
    },
    '/studio/api/login': {
      post: op('login', 'Sign in with email and password', {
        security: [],
        description:
          "Sets the session cookie. Limited per account and per client address (429). Refused from another site's page (403 csrf_failed).",
        requestBody: body({
          type: 'object',
          additionalProperties: false,
          required: ['email', 'password'],
          properties: { email: EMAIL, password: PASSWORD },
        }),
        responses: {
          '200': json(ref('StudioSession'), 'Signed in.'),
          ...bodyErrors,
          '401': error('invalid_credentials: the email or password is not right (the same answer for both).'),
          '403': error('csrf_failed: another origin.'),
          '429': error('rate_limited: too many attempts for this account or from this address.'),
        },
      }),
    },
    '/studio/api/setup': {
      get: op('checkSetupLink', 'What a one-time setup link creates', {
        security: [],
        parameters: [{ name: 'token', in: 'query', required: true, schema: SETUP_TOKEN }],
        responses: {
          '200': json(
            {
              type: 'object',
              required: ['role', 'email', 'existing'],
              properties: { role: ROLE, email: { type: ['string', 'null'] }, existing: { type: 'boolean' } },
            },
            'The link is valid.',
          ),
          '400': error('invalid_parameter.'),
          '404': error('setup_link_invalid: used, expired or mistyped.'),
        },
      }),
      post: op(
        'completeSetup',
        "Use a one-time setup link: create the account (or set the named account's password) and sign in",
        {
          security: [],
          requestBody: body({
            type: 'object',
            additionalProperties: false,
            required: ['token', 'name', 'password'],
            properties: { token: SETUP_TOKEN, email: EMAIL, name: NAME, password: PASSWORD },
          }),
          responses: {
            '201': json(ref('StudioSession'), 'Signed in.'),
            ...bodyErrors,
            '400': error('invalid_body, or weak_password: too short, or a commonly used password.'),
            '403': error('csrf_failed.'),
            '404': error('setup_link_invalid.'),
            '409': error('email_taken.'),
          },
        },
      ),
    },
    '/studio/api/session': {
      get: op('session', 'Who is signed in, and the CSRF token', {
        responses: { '200': json(ref('StudioSession'), 'The caller.'), ...guarded('any role') },
      }),
    },
    '/studio/api/logout': {
      post: op('logout', 'End this session', {
        responses: { '204': { description: 'Signed out.' }, ...guarded('any role') },
      }),
    },
    '/studio/api/logout-everywhere': {
      post: op(
        'logoutEverywhere',
        "End every session of the caller's account, and with apiTokens its API tokens too (each audited as revoked)",
        {
          requestBody: {
            required: false,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  properties: {
                    apiTokens: {
                      type: 'boolean',
                      description: "End the account's API tokens as well. Without a body, only the sessions end.",
                    },
                  },
                },
              },
            },
          },
          responses: {
            '200': json(
              {
                type: 'object',
                required: ['ended', 'tokensEnded'],
                properties: { ended: { type: 'integer' }, tokensEnded: { type: 'integer' } },
              },
              'How many sessions and API tokens ended.',
            ),
            ...bodyErrors,
            ...guarded('any role'),
          },
        },
      ),
    },
    '/studio/api/sessions': {
      get: op('listSessions', "The caller's sessions", {
        responses: {
          '200': json({ type: 'array', items: { type: 'object' } }, 'Sessions, most recently active first.'),
          ...guarded('any role'),
        },
      }),
    },
    '/studio/api/sessions/{id}': {
      delete: op('endSession', "End one of the caller's sessions", {
        parameters: [{ name: 'id', in: 'path', required: true, schema: HANDLE }],
        responses: {
          '204': { description: 'Ended.' },
          '400': error('invalid_parameter.'),
          '404': error('not_found.'),
          ...guarded('any role'),
        },
      }),
    },
    '/studio/api/password': {
      post: op('changePassword', "Change the caller's password (ends its other sessions)", {
        requestBody: body({
          type: 'object',
          additionalProperties: false,
          required: ['currentPassword', 'newPassword'],
          properties: { currentPassword: PASSWORD, newPassword: PASSWORD },
        }),
        responses: {
          '204': { description: 'Changed.' },
          ...bodyErrors,
          '400': error(
            'invalid_body; invalid_credentials: the current password is not right; weak_password: the new one is too short or commonly used.',
          ),
          ...guarded('any role'),
        },
      }),
    },
    '/studio/api/accounts': {
      get: op('listAccounts', 'Accounts and pending invitations', {
        responses: {
          '200': json(
            {
              type: 'object',
              required: ['accounts', 'invitations'],
              properties: {
                accounts: { type: 'array', items: ref('StudioAccount') },
                invitations: { type: 'array', items: { type: 'object' } },
              },
            },
            'Every account.',
          ),
          ...guarded('the owner role'),
        },
      }),
      post: op('inviteAccount', 'Invite someone: a one-time setup link for an email and role, shown once', {
        requestBody: body({
          type: 'object',
          additionalProperties: false,
          required: ['email', 'role'],
          properties: { email: EMAIL, role: ROLE },
        }),
        responses: {
          '201': json(
            {
              type: 'object',
              required: ['email', 'role', 'link', 'expiresAt'],
              properties: { email: { type: 'string' }, role: ROLE, link: { type: 'string' }, expiresAt: ISO },
            },
            'The link to pass on.',
          ),
          ...bodyErrors,
          ...guarded('the owner role'),
        },
      }),
    },
    '/studio/api/accounts/{id}': {
      patch: op('updateAccount', "Change an account's role or name", {
        parameters: [{ name: 'id', in: 'path', required: true, schema: ID }],
        requestBody: body({
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: { role: ROLE, name: NAME },
        }),
        responses: {
          '200': json(ref('StudioAccount'), 'Changed.'),
          ...bodyErrors,
          '404': error('not_found.'),
          '409': error('last_owner: the only owner keeps the role.'),
          ...guarded('the owner role'),
        },
      }),
      delete: op('deleteAccount', 'Delete an account (its sessions and API tokens end)', {
        parameters: [{ name: 'id', in: 'path', required: true, schema: ID }],
        responses: {
          '204': { description: 'Deleted.' },
          '400': error('invalid_parameter.'),
          '404': error('not_found.'),
          '409': error('last_owner or own_account.'),
          ...guarded('the owner role'),
        },
      }),
    },
    '/studio/api/invitations/{id}': {
      delete: op('cancelInvitation', 'Cancel a pending invitation', {
        parameters: [{ name: 'id', in: 'path', required: true, schema: HANDLE }],
        responses: {
          '204': { description: 'Cancelled.' },
          '400': error('invalid_parameter.'),
          '404': error('not_found.'),
          ...guarded('the owner role'),
        },
      }),
    },
    '/studio/api/tokens': {
      get: op('listTokens', "The caller's API tokens (never the tokens themselves)", {
        responses: {
          '200': json({ type: 'array', items: ref('StudioToken') }, 'Newest first.'),
          ...guarded('any role'),
        },
      }),
      post: op('createToken', 'Make an API token: the answer holds it, once', {
        requestBody: body({
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: { name: NAME, expiresInDays: { type: 'integer', minimum: 1, maximum: 3650 } },
        }),
        responses: {
          '201': json(
            {
              allOf: [
                ref('StudioToken'),
                { type: 'object', required: ['token'], properties: { token: { type: 'string' } } },
              ],
            },
            'Made.',
          ),
          ...bodyErrors,
          '409': error('too_many_tokens.'),
          ...guarded('any role'),
        },
      }),
    },
    '/studio/api/tokens/{id}': {
      delete: op('revokeToken', "Revoke one of the caller's API tokens", {
        parameters: [{ name: 'id', in: 'path', required: true, schema: ID }],
        responses: {
          '204': { description: 'Revoked.' },
          '400': error('invalid_parameter.'),
          '404': error('not_found.'),
          ...guarded('any role'),
        },
      }),
    },
    '/studio/api/secrets': {
      get: op('listSecrets', 'Secret names and status (never a value)', {
        responses: {
          '200': json({ type: 'array', items: ref('StudioSecret') }, 'By name.'),
          ...guarded('the owner or editor role'),
        },
      }),
    },
    '/studio/api/secrets/{name}': {
      put: op('setSecret', 'Set a secret (write-only); the bot uses it at once on every node', {
        parameters: [{ name: 'name', in: 'path', required: true, schema: SECRET_NAME }],
        requestBody: body({
          type: 'object',
          additionalProperties: false,
          required: ['value'],
          properties: { value: { type: 'string', minLength: 1, maxLength: DOCUMENTED_MAX_SECRET_BYTES / 4 } },
        }),
        responses: { '200': secretChange, ...bodyErrors, ...guarded('the owner role') },
      }),
      delete: op('deleteSecret', 'Delete a secret set in the studio', {
        parameters: [{ name: 'name', in: 'path', required: true, schema: SECRET_NAME }],
        responses: {
          '200': secretChange,
          '400': error('invalid_parameter.'),
          '404': error('not_found.'),
          ...guarded('the owner role'),
        },
      }),
    },
    '/studio/api/audit': {
      get: op('readAudit', 'The audit trail, a page at a time, oldest first', {
        parameters: [
          { name: 'fromTimestamp', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 99_999_999_999 } },
          { name: 'toTimestamp', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 99_999_999_999 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
          { name: 'cursor', in: 'query', schema: { type: 'string', pattern: '^[0-9a-z-]{1,64}$' } },
        ],
        responses: {
          '200': json(
            {
              type: 'object',
              required: ['entries', 'nextCursor'],
              properties: {
                entries: { type: 'array', items: { type: 'object' } },
                nextCursor: { type: ['string', 'null'] },
              },
            },
            'A page.',
          ),
          '400': error('invalid_parameter.'),
          ...guarded('the owner role'),
        },
      }),
    },
    '/studio/api/oidc/login': {
      get: op('ssoLogin', 'Start single sign-on (a redirect to the identity provider)', {
        security: [],
        responses: {
          '303': { description: 'To the provider.' },
          '404': error('not_found: single sign-on is not set up.'),
          '503': error('sso_unavailable.'),
        },
      }),
    },
    '/studio/api/oidc/callback': {
      get: op('ssoCallback', 'Where the identity provider sends the browser back', {
        security: [],
        description:
          "Checks state, nonce and the ID token's signature against the provider's keys, then signs in and redirects to /studio/; a refused sign-in redirects to /studio/?sso_error=forbidden|failed, which the sign-in page explains.",
        responses: {
          '303': { description: 'To the studio, signed in or with sso_error.' },
          '404': error('not_found: single sign-on is not set up.'),
          '503': error('sso_unavailable.'),
        },
      }),
    },
  };
}
