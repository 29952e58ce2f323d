import { defineStepType } from '../step-contract/define-step-type.ts';
import type { StepContext, StepRequest } from '../step-contract/step-type.ts';
import { readServiceAccount, withGoogleToken } from './google-service-account.ts';
import { baseUrl, failure, secretName, under } from './schema-parts.ts';

const SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
const SHEETS_API = 'https://sheets.googleapis.com/';

const common = {
  credentialsSecret: secretName(
    "The secret holding the service account's key file as Google gives it to download (its text, or the text in base64). Share the spreadsheet with the account's email address (client_email in that file).",
  ),
  spreadsheetId: {
    type: 'string',
    pattern: '^[A-Za-z0-9_-]{10,100}$',
    description: "The spreadsheet's id: the part of its URL between /d/ and /edit.",
  },
  apiBaseUrl: baseUrl("The Sheets API's address (for a proxy or a test double).", SHEETS_API),
} as const;

const cell = { type: ['string', 'number', 'boolean', 'null'] };

/** A table in A1 notation. */
const range = (description: string) => ({ type: 'string', minLength: 1, maxLength: 200, description });

/** What both Sheets steps are: actions on an optional service, a service account's key their secret. */
const sheetsStep = {
  level: 'action',
  service: 'optional',
  secrets: ['credentialsSecret'],
  fixed: ['apiBaseUrl'],
} as const;

interface SheetsParams {
  readonly spreadsheetId: string;
  readonly range: string;
  readonly apiBaseUrl: string;
}

/**
 * One call to the spreadsheet's values in a range, with the service account's token (a new one
 * once after a 401). The A1 range is encoded in the URL path, since a sheet name may hold spaces or "#".
 */
function callValues(ctx: StepContext, params: SheetsParams, request: Omit<StepRequest, 'url' | 'headers'>, verb = '') {
  const key = readServiceAccount(ctx.secret('credentialsSecret')!);
  const path = `v4/spreadsheets/${encodeURIComponent(params.spreadsheetId)}/values/${encodeURIComponent(params.range)}`;
  return withGoogleToken(ctx, key, SCOPE, (token) =>
    ctx.request({
      ...request,
      url: under(params.apiBaseUrl, path) + verb,
      headers: { authorization: `Bearer ${token}` },
    }),
  );
}

/** Google Sheets: append a row after the table in a range (spreadsheets.values.append). */
export const googleSheetsAppendRow = defineStepType({
  name: 'googleSheetsAppendRow',
  ...sheetsStep,
  description:
    'Adds a row to a table in Google Sheets, signed in as a Google service account; the result names the cells written.',
  params: {
    type: 'object',
    properties: {
      ...common,
      range: range(
        'Where the table is, in A1 notation: "Leads" (a whole sheet) or "Leads!A:E"; the row goes after its last row.',
      ),
      values: {
        type: 'array',
        minItems: 1,
        maxItems: 200,
        items: cell,
        description: "The row's cells, left to right, e.g. {{userData.email}}, then {{userData.name}}, then chatbot.",
      },
      valueInputOption: {
        enum: ['USER_ENTERED', 'RAW'],
        default: 'USER_ENTERED',
        description: 'USER_ENTERED reads values as if typed (numbers, dates, formulas); RAW stores them as they are.',
      },
    },
    required: ['credentialsSecret', 'spreadsheetId', 'range', 'values'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: {
      updatedRange: { type: 'string', description: 'The cells written, e.g. "Leads!A12:E12".' },
      updatedRows: { type: 'integer', description: 'Rows written (1).' },
    },
    required: ['updatedRange', 'updatedRows'],
  },
  async call(ctx: StepContext) {
    const params = ctx.params as unknown as SheetsParams & { values: unknown[]; valueInputOption: string };
    const response = await callValues(
      ctx,
      params,
      {
        method: 'POST',
        query: { valueInputOption: params.valueInputOption, insertDataOption: 'INSERT_ROWS' },
        json: { range: params.range, majorDimension: 'ROWS', values: [params.values] },
      },
      ':append',
    );
    const updates = (response.body as { updates?: { updatedRange?: unknown; updatedRows?: unknown } } | null)?.updates;
    if (typeof updates?.updatedRange !== 'string')
      throw failure('Google Sheets answered the append without the range it wrote.', 'invalid_body');
    return {
      updatedRange: updates.updatedRange,
      updatedRows: typeof updates.updatedRows === 'number' ? updates.updatedRows : 1,
    };
  },
});

/** Google Sheets: look up the rows of a table whose column holds a value (spreadsheets.values.get, filtered here). */
export const googleSheetsLookupRows = defineStepType({
  name: 'googleSheetsLookupRows',
  ...sheetsStep,
  description:
    'Looks up the rows of a table in Google Sheets whose column holds a value, signed in as a Google service account; the result holds each row by its column headers, and how many matched.',
  params: {
    type: 'object',
    properties: {
      ...common,
      range: range('The table in A1 notation, header row first: "Orders" or "Orders!A1:F500".'),
      column: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: 'The header of the column to match, e.g. "Order number".',
      },
      value: {
        type: ['string', 'number', 'boolean'],
        description:
          'The value that column must hold, e.g. "{{orderNumber}}"; compared as text, spaces at the ends ignored.',
      },
      ignoreCase: { type: 'boolean', default: false, description: 'Compare without regard to upper and lower case.' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'Most rows returned.' },
    },
    required: ['credentialsSecret', 'spreadsheetId', 'range', 'column', 'value'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: {
      rows: {
        type: 'array',
        items: { type: 'object' },
        description: 'The matching rows, each {header: cell text}, in sheet order.',
      },
      count: { type: 'integer', description: 'How many rows matched (rows holds at most limit of them).' },
    },
    required: ['rows', 'count'],
  },
  async call(ctx: StepContext) {
    const params = ctx.params as unknown as SheetsParams & {
      column: string;
      value: string | number | boolean;
      ignoreCase: boolean;
      limit: number;
    };
    const response = await callValues(ctx, params, {
      method: 'GET',
      query: { majorDimension: 'ROWS', valueRenderOption: 'FORMATTED_VALUE' },
    });
    const values = (response.body as { values?: unknown } | null)?.values ?? [];
    if (!Array.isArray(values) || !values.every(Array.isArray))
      throw failure('Google Sheets answered without rows of values.', 'invalid_body');
    const [header = [], ...rows] = values as unknown[][];
    const names = header.map((name) => String(name ?? '').trim());
    const at = names.indexOf(params.column.trim());
    if (at < 0)
      throw failure(
        `The table has no column "${params.column}" in its header row (it has: ${names.filter(Boolean).join(', ') || 'none'}).`,
        'invalid_params',
      );
    const norm = (text: unknown) =>
      params.ignoreCase
        ? String(text ?? '')
            .trim()
            .toLowerCase()
        : String(text ?? '').trim();
    const wanted = norm(params.value);
    const matches = rows.filter((row) => norm(row[at]) === wanted);
    return {
      rows: matches
        .slice(0, params.limit)
        .map((row) =>
          Object.fromEntries(
            names.map((name, i) => [name || `column${i + 1}`, row[i] === undefined ? '' : String(row[i])]),
          ),
        ),
      count: matches.length,
    };
  },
});
