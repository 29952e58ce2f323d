/**
 * The people side of the studio's API in the OpenAPI document, in words: sign-in, setup links,
 * sessions, accounts, API tokens, secrets and the audit trail (routes in
 * server/studio-server/http/*-routes.ts). Paths, parameters, bodies and answers come from the map
 * (studio-map-operations.ts). Open routes (sign-in, setup links, single sign-on) carry no
 * security; every other needs a studio session (cookie, with the CSRF header on writes) or an
 * account's API token, and names its role.
 */
import type { StudioRouteName } from '../../../shared/studio-routes.ts';
import { error } from './operation-parts.ts';
import { type OperationWords } from './studio-openapi-parts.ts';

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

const tag = 'Studio: people';
const anyRole = 'any role';
const owner = 'manageAccounts (owner)';
const notFound = { '404': error('not_found.') };
const ssoErrors = {
  '404': error('not_found: single sign-on is not set up.'),
  '503': error('sso_unavailable.'),
};

export const peopleWords = {
  signInOptions: {
    tag,
    open: true,
    role: 'none (open)',
    summary: 'How the sign-in page offers sign-in',
    answer: 'Sign-in methods, and whether this browser is signed in.',
  },
  login: {
    tag,
    open: true,
    role: 'none (open)',
    summary: 'Sign in with email and password',
    description:
      "Sets the session cookie. Limited per account and per client address (429). Refused from another site's page (403 csrf_failed).",
    answer: 'Signed in.',
    errors: {
      '401': error('invalid_credentials: the email or password is not right (the same answer for both).'),
      '403': error('csrf_failed: another origin.'),
      '429': error('rate_limited: too many attempts for this account or from this address.'),
    },
  },
  checkSetupLink: {
    tag,
    open: true,
    role: 'none (open)',
    summary: 'What a one-time setup link creates',
    answer: 'The link is valid.',
    errors: { '404': error('setup_link_invalid: used, expired or mistyped.') },
  },
  completeSetup: {
    tag,
    open: true,
    role: 'none (open)',
    summary: "Use a one-time setup link: create the account (or set the named account's password) and sign in",
    answer: 'Signed in.',
    errors: {
      '400': error('invalid_body, or weak_password: too short, or a commonly used password.'),
      '403': error('csrf_failed.'),
      '404': error('setup_link_invalid.'),
      '409': error('email_taken.'),
    },
  },
  ssoLogin: {
    tag,
    open: true,
    role: 'none (open)',
    summary: 'Start single sign-on (a redirect to the identity provider)',
    answer: 'To the provider.',
    responses: { '303': { description: 'To the provider.' } },
    errors: ssoErrors,
  },
  ssoCallback: {
    tag,
    open: true,
    role: 'none (open)',
    summary: 'Where the identity provider sends the browser back',
    description:
      "Checks state, nonce and the ID token's signature against the provider's keys, then signs in and redirects to /studio/; a refused sign-in redirects to /studio/?sso_error=forbidden|failed, which the sign-in page explains.",
    answer: 'To the studio, signed in or with sso_error.',
    responses: { '303': { description: 'To the studio, signed in or with sso_error.' } },
    errors: ssoErrors,
  },
  session: { tag, role: anyRole, summary: 'Who is signed in, and the CSRF token', answer: 'The caller.' },
  logout: { tag, role: anyRole, summary: 'End this session', answer: 'Signed out.' },
  logoutEverywhere: {
    tag,
    role: anyRole,
    summary:
      "End every session of the caller's account, and with apiTokens its API tokens too (each audited as revoked)",
    description: "With `apiTokens`, the account's API tokens end as well. Without a body, only the sessions end.",
    answer: 'How many sessions and API tokens ended.',
    optionalBody: true,
  },
  listSessions: {
    tag,
    role: anyRole,
    summary: "The caller's sessions",
    answer: 'Sessions, most recently active first.',
  },
  endSession: {
    tag,
    role: anyRole,
    summary: "End one of the caller's sessions",
    answer: 'Ended.',
    errors: notFound,
  },
  changePassword: {
    tag,
    role: anyRole,
    summary: "Change the caller's password (ends its other sessions)",
    answer: 'Changed.',
    errors: {
      '400': error(
        'invalid_body; invalid_credentials: the current password is not right; weak_password: the new one is too short or commonly used.',
      ),
    },
  },
  listTokens: {
    tag,
    role: anyRole,
    summary: "The caller's API tokens (never the tokens themselves)",
    answer: 'Newest first.',
  },
  createToken: {
    tag,
    role: anyRole,
    summary: 'Make an API token: the answer holds it, once',
    answer: 'Made.',
    errors: { '409': error('too_many_tokens.') },
  },
  revokeToken: {
    tag,
    role: anyRole,
    summary: "Revoke one of the caller's API tokens",
    answer: 'Revoked.',
    errors: notFound,
  },
  listAccounts: { tag, role: owner, summary: 'Accounts and pending invitations', answer: 'Every account.' },
  inviteAccount: {
    tag,
    role: owner,
    summary: 'Invite someone: a one-time setup link for an email and role, shown once',
    answer: 'The link to pass on.',
  },
  updateAccount: {
    tag,
    role: owner,
    summary: "Change an account's role or name",
    answer: 'Changed.',
    errors: { ...notFound, '409': error('last_owner: the only owner keeps the role.') },
  },
  deleteAccount: {
    tag,
    role: owner,
    summary: 'Delete an account (its sessions and API tokens end)',
    answer: 'Deleted.',
    errors: { ...notFound, '409': error('last_owner or own_account.') },
  },
  cancelInvitation: {
    tag,
    role: owner,
    summary: 'Cancel a pending invitation',
    answer: 'Cancelled.',
    errors: notFound,
  },
  listSecrets: {
    tag,
    role: 'listSecrets (owner, editor)',
    summary: 'Secret names and status (never a value)',
    answer: 'By name.',
  },
  setSecret: {
    tag,
    role: 'manageSecrets (owner)',
    summary: 'Set a secret (write-only); the bot uses it at once on every node',
    answer: "The secret's status (never its value), and whether the bot was put in service again with it.",
  },
  deleteSecret: {
    tag,
    role: 'manageSecrets (owner)',
    summary: 'Delete a secret set in the studio',
    answer: "The secret's status (never its value), and whether the bot was put in service again with it.",
    errors: notFound,
  },
  readAudit: {
    tag,
    role: 'readAudit (owner)',
    summary: 'The audit trail, a page at a time, oldest first',
    answer: 'A page.',
  },
} as const satisfies { readonly [N in StudioRouteName]?: OperationWords };
