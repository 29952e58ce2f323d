/** The audit trail's export in the management API's document (the studio's trail, exported like the logs). */
import { error, exportParameters, managementErrors, ref } from './operation-parts.ts';

export const auditRecordSchema = {
  type: 'object',
  description:
    "One entry of the studio's audit trail. Never holds a secret's value, a password or a token: a secret change names the secret only.",
  additionalProperties: false,
  required: ['timestamp', 'id', 'actorKind', 'actorAccountId', 'actorEmail', 'ip', 'action', 'target', 'details'],
  properties: {
    timestamp: {
      type: 'string',
      format: 'date-time',
      description: 'When it happened, ISO 8601 UTC with milliseconds.',
    },
    id: { type: 'string', description: 'Sorts as the entries were recorded.' },
    actorKind: {
      type: 'string',
      enum: ['account', 'token', 'file', 'system', 'key'],
      description:
        "account: a person in the studio; token: an account's API token; file: BOT_DEFINITION at start; system: the server; key: a management API caller with the function key.",
    },
    actorAccountId: { type: ['string', 'null'] },
    actorEmail: { type: ['string', 'null'] },
    ip: { type: ['string', 'null'], description: "The client's address as TRUST_PROXY sees it." },
    action: {
      type: 'string',
      description:
        'login, login_failed, logout, session_revoked, password_changed, account_created, account_updated, account_deleted, role_changed, token_created, token_revoked, secret_set, secret_deleted, setup_link_created, setup_link_cancelled, user_erased, version_saved, published, rolled_back, …',
    },
    target: {
      type: ['string', 'null'],
      description:
        "What it happened to: an account id, a token id, a secret's name, `sha256:<hex>` of an erased user's id.",
    },
    details: { type: ['object', 'null'], additionalProperties: true, description: 'What changed, in plain values.' },
  },
};

export function auditPaths(): Record<string, unknown> {
  return {
    '/api/management/audit': {
      get: {
        operationId: 'exportAuditTrail',
        tags: ['Audit'],
        summary: "Export the studio's audit trail",
        description:
          'Beyond the spec: who did what in the studio (sign-ins and failed sign-ins, accounts and roles, API tokens, secret changes by name, versions and publishes) and every user erasure, with actor, time and IP. Append-only; RETENTION_AUDIT_DAYS removes older entries (unset: kept). Sorted by time ascending; the same time filters, paging and formats as the exports. Unknown query parameters are a 400.',
        parameters: exportParameters,
        responses: {
          '200': {
            description:
              'The entries. With `limit`, X-Next-Cursor and Link rel="next" are sent only when there may be more.',
            headers: {
              'X-Next-Cursor': {
                description: 'Cursor of the next page; pass it as `cursor`.',
                schema: { type: 'string' },
              },
              Link: { description: 'URL of the next page, `<...>; rel="next"`.', schema: { type: 'string' } },
            },
            links: {
              nextPage: { operationId: 'exportAuditTrail', parameters: { cursor: '$response.header.X-Next-Cursor' } },
            },
            content: {
              'application/json': { schema: { type: 'array', items: ref('schemas/AuditRecord') } },
              'application/x-ndjson': { schema: { type: 'string', description: 'One entry a line.' } },
              'text/csv': {
                schema: { type: 'string', description: 'RFC 4180 CSV with a header row; details as JSON in its cell.' },
              },
            },
          },
          '400': error(
            'invalid_parameter: a bad timestamp, limit, cursor or format, fromTimestamp > toTimestamp, or an unknown parameter.',
          ),
          ...managementErrors,
        },
      },
    },
  };
}
