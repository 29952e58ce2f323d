import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { json, startStandIn, type StandIn } from './stand-in.ts';

/**
 * Google. The token endpoint (developers.google.com/identity/protocols/oauth2/service-account,
 * "Making the access token request"): POST application/x-www-form-urlencoded with
 * grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer and assertion=<JWT>, the JWT RS256-signed
 * with the service account's key, claims iss (client_email), scope, aud (the token URL), exp at
 * most an hour after iat. 200 {"access_token", "expires_in": 3599, "token_type": "Bearer"};
 * 400 {"error": "invalid_grant", "error_description": "Invalid JWT Signature."}.
 * Sheets API v4 (developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values):
 * POST /v4/spreadsheets/{id}/values/{range}:append?valueInputOption=…&insertDataOption=… with a
 * ValueRange {"range", "majorDimension", "values": [[…]]}, answering {spreadsheetId, tableRange,
 * updates: {updatedRange, updatedRows, …}}; GET /v4/spreadsheets/{id}/values/{range} answering
 * {range, majorDimension, values}. Errors as {"error": {code, message, status}}: 401 UNAUTHENTICATED,
 * 429 RESOURCE_EXHAUSTED, 503 UNAVAILABLE.
 */
export interface GoogleStandIn extends StandIn {
  /** A service account key file whose token_uri is this stand-in. */
  readonly keyFile: string;
  readonly clientEmail: string;
  readonly privateKey: string;
  /** Access tokens handed out, newest last. */
  readonly issued: string[];
  readonly appended: unknown[][];
}

export const SPREADSHEET_ID = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';
export const SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

export async function startGoogle(): Promise<GoogleStandIn> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const clientEmail = 'chatbot-sheets@demo-project-123456.iam.gserviceaccount.com';
  const issued: string[] = [];
  const appended: unknown[][] = [];
  let tokenUri = '';
  const table = [
    ['Order number', 'Status', 'Email'],
    ['A-100', 'shipped', 'ada@example.com'],
    ['A-101', 'packing', 'bob@example.com'],
    ['a-100 ', 'returned', 'ada@example.com'],
  ];
  const standIn = await startStandIn('google', (req, mode, check) => {
    const url = new URL(req.url, 'http://stand-in');
    if (url.pathname === '/token') {
      check.method('POST').header('content-type', /^application\/x-www-form-urlencoded/);
      const form = new URLSearchParams(req.body);
      check.that(
        form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        'grant_type must be urn:ietf:params:oauth:grant-type:jwt-bearer',
      );
      const problem = jwtProblem(form.get('assertion') ?? '', publicKey, {
        iss: clientEmail,
        scope: SCOPE,
        aud: tokenUri,
      });
      if (problem) return (res) => json(res, 400, { error: 'invalid_grant', error_description: problem });
      if (mode === 'server_error') return (res) => json(res, 503, { error: 'temporarily_unavailable' });
      const token = `ya29.c.stand-in-${issued.length + 1}-${Math.random().toString(36).slice(2)}`;
      issued.push(token);
      return (res) => json(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
    }
    check
      .header('authorization', /^Bearer ya29\./)
      .that(
        issued.includes((req.headers.authorization ?? '').slice('Bearer '.length)),
        'the access token is not one the token endpoint issued',
      );
    const failure = googleError(mode);
    const values = /^\/v4\/spreadsheets\/([^/]+)\/values\/([^/:]+)(:append)?$/.exec(url.pathname);
    check.that(
      values !== null && decodeURIComponent(values[1]!) === SPREADSHEET_ID,
      `no such spreadsheet operation: ${url.pathname}`,
    );
    if (values?.[3]) {
      check.method('POST').header('content-type', /^application\/json/);
      check
        .that(
          ['RAW', 'USER_ENTERED'].includes(url.searchParams.get('valueInputOption') ?? ''),
          'valueInputOption (RAW or USER_ENTERED) is required',
        )
        .that(
          ['INSERT_ROWS', 'OVERWRITE', null].includes(url.searchParams.get('insertDataOption')),
          'insertDataOption is INSERT_ROWS or OVERWRITE',
        );
      const body = check.jsonBody();
      check.that(
        Array.isArray(body.values) && (body.values as unknown[]).every(Array.isArray),
        'a ValueRange holds "values": a list of rows',
      );
      if (failure) return failure;
      const row = (body.values as unknown[][])[0] ?? [];
      appended.push(row);
      const range = decodeURIComponent(values[2]!);
      const sheet = range.split('!')[0];
      const at = 11 + appended.length;
      return (res) =>
        json(res, 200, {
          spreadsheetId: SPREADSHEET_ID,
          tableRange: `${sheet}!A1:E${at - 1}`,
          updates: {
            spreadsheetId: SPREADSHEET_ID,
            updatedRange: `${sheet}!A${at}:${String.fromCharCode(64 + row.length)}${at}`,
            updatedRows: 1,
            updatedColumns: row.length,
            updatedCells: row.length,
          },
        });
    }
    check.method('GET');
    if (failure) return failure;
    return (res) =>
      json(res, 200, { range: `${decodeURIComponent(values?.[2] ?? '')}`, majorDimension: 'ROWS', values: table });
  });
  tokenUri = `${standIn.url}/token`;
  const keyFile = JSON.stringify({
    type: 'service_account',
    project_id: 'demo-project-123456',
    private_key_id: '2b9c0d5e7a1f4c3b8e6d0a9f1c2b3a4d5e6f7a8b',
    private_key: pem,
    client_email: clientEmail,
    client_id: '117893094584323651789',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
  });
  return Object.assign(standIn, { keyFile, clientEmail, privateKey: pem, issued, appended });
}

function googleError(mode: string): ((res: import('node:http').ServerResponse) => void) | undefined {
  if (mode === 'unauthorized') {
    return (res) =>
      json(res, 401, {
        error: {
          code: 401,
          message:
            'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
          status: 'UNAUTHENTICATED',
        },
      });
  }
  if (mode === 'rate_limited') {
    return (res) =>
      json(res, 429, {
        error: {
          code: 429,
          message:
            "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:123456'.",
          status: 'RESOURCE_EXHAUSTED',
        },
      });
  }
  if (mode === 'server_error')
    return (res) =>
      json(res, 503, { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } });
  return undefined;
}

/** What is wrong with a JWT bearer assertion, or undefined when Google would take it. */
function jwtProblem(
  assertion: string,
  publicKey: KeyObject,
  expected: { iss: string; scope: string; aud: string },
): string | undefined {
  const parts = assertion.split('.');
  if (parts.length !== 3) return 'Invalid JWT: it is not three base64url parts.';
  const [head, body, signature] = parts as [string, string, string];
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as Record<string, unknown>;
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return 'Invalid JWT: the header or claim set is not JSON.';
  }
  if (header.alg !== 'RS256') return 'Invalid JWT: alg must be RS256.';
  if (!verify('RSA-SHA256', Buffer.from(`${head}.${body}`), publicKey, Buffer.from(signature, 'base64url')))
    return 'Invalid JWT Signature.';
  if (claims.iss !== expected.iss) return 'Invalid JWT: iss is not the service account.';
  if (claims.scope !== expected.scope) return `Invalid JWT: scope ${String(claims.scope)} is not ${expected.scope}.`;
  if (claims.aud !== expected.aud) return 'Invalid JWT: aud must be the token URL.';
  const now = Date.now() / 1000;
  const iat = Number(claims.iat);
  const exp = Number(claims.exp);
  if (!(Math.abs(iat - now) < 300) || !(exp > iat) || exp - iat > 3600)
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
  return undefined;
}
