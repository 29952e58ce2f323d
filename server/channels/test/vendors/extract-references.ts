/**
 * Cuts the parts of the vendors' published OpenAPI documents that the stand-ins use (the send-message
 * operations, every schema they reach, their examples and the documents' error shapes) and writes them
 * beside the stand-ins, so the checks follow the vendor's text rather than our reading of it.
 *
 *   npx tsx server/channels/test/vendors/extract-references.ts <facebook/openapi checkout> <twilio/twilio-oai checkout>
 *
 * Run it again after fetching newer commits of those repositories; the source note in each file
 * (repository, path, commit, licence) is filled in from the checkouts.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const here = dirname(fileURLToPath(import.meta.url));

/** A file of a fetched repository at its HEAD (the fetch tool leaves a bare git directory). */
function gitShow(gitDir: string, path: string): string {
  return execFileSync('git', ['--git-dir', gitDir, 'show', `HEAD:${path}`], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

function gitCommit(gitDir: string): { commit: string; date: string } {
  const [commit = '', date = ''] = execFileSync('git', ['--git-dir', gitDir, 'log', '-1', '--format=%H %cI'], {
    encoding: 'utf8',
  })
    .trim()
    .split(' ');
  return { commit, date };
}

/** Every `#/components/<kind>/<name>` a value reaches, followed transitively through the document. */
function componentClosure(document: JsonObject, roots: Json[]): JsonObject {
  const components = document.components as Record<string, JsonObject>;
  const kept: Record<string, JsonObject> = {};
  const pending = [...roots];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (value !== null && typeof value === 'object') {
      const reference = value.$ref;
      if (typeof reference === 'string' && reference.startsWith('#/components/')) {
        const [kind = '', name = ''] = reference.slice('#/components/'.length).split('/');
        const found = components[kind]?.[name];
        if (found === undefined) throw new Error(`The reference names ${reference}, which it does not define.`);
        const keptOfKind = (kept[kind] ??= {});
        if (!(name in keptOfKind)) {
          keptOfKind[name] = found;
          pending.push(found);
        }
      }
      pending.push(...Object.values(value));
    }
  }
  return kept;
}

function pick(examples: JsonObject, names: string[]): JsonObject {
  return Object.fromEntries(
    names.map((name) => {
      const example = examples[name];
      if (example === undefined) throw new Error(`The reference has no example named "${name}".`);
      return [name, example];
    }),
  );
}

/** The first example of each error status anywhere in the document, and where it was found. */
function errorExamples(document: JsonObject, statuses: string[]): JsonObject {
  const found: JsonObject = {};
  for (const [path, item] of Object.entries(document.paths as Record<string, JsonObject>)) {
    for (const [method, operation] of Object.entries(item)) {
      const responses = (operation as JsonObject)?.responses as Record<string, JsonObject> | undefined;
      for (const status of statuses) {
        const examples = (
          (responses?.[status]?.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined
        )?.examples as JsonObject | undefined;
        const first = examples && Object.values(examples)[0];
        if (first && !(status in found))
          found[status] = { foundAt: `${method.toUpperCase()} ${path}`, ...(first as JsonObject) };
      }
    }
  }
  return found;
}

function licence(gitDir: string): string {
  return gitShow(gitDir, 'LICENSE').split('\n').slice(0, 3).join(' ').trim();
}

function writeJson(path: string, value: Json): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

function extractWhatsApp(gitDir: string): void {
  const file = 'business-messaging-api_v23.0.yaml';
  const document = parse(gitShow(gitDir, file)) as JsonObject;
  const pathName = '/{Version}/{Phone-Number-ID}/messages';
  const item = (document.paths as JsonObject)[pathName] as JsonObject;
  const operation = structuredClone(item.post) as JsonObject;
  const request = ((operation.requestBody as JsonObject).content as JsonObject)['application/json'] as JsonObject;
  request.examples = pick(request.examples as JsonObject, [
    'Send Text Message',
    'Send Text Message with Preview URL',
    'Send Reply Button',
    'Send List Message',
    'Send Image Message by URL',
    'Send Image Message by ID',
    'Send Message Template Text',
    'Send Message Template Media',
  ]);
  const ok = (operation.responses as JsonObject)['200'] as JsonObject;
  delete ok.headers;
  const okJson = (ok.content as JsonObject)['application/json'] as JsonObject;
  okJson.examples = pick(okJson.examples as JsonObject, [
    'Example response',
    'Send Text Message',
    'Send Reply Button',
    'Send List Message',
    'Send Image Message by URL',
    'Send Message Template Text',
  ]);
  // The error shape, and the webhook payloads a test posts to the connector (messages and statuses).
  const alsoKept = [{ $ref: '#/components/schemas/GraphAPIError' }, { $ref: '#/components/schemas/WebhookPayload' }];
  const reference = {
    source: {
      repository: 'facebook/openapi',
      path: file,
      ...gitCommit(gitDir),
      licence: licence(gitDir),
      note: 'A cut of the published document: the send-message operation, the schemas it reaches, the error schema, the webhook payload schema and one error example per status. Regenerate with extract-references.ts.',
    },
    openapi: document.openapi,
    info: { title: (document.info as JsonObject).title, version: (document.info as JsonObject).version },
    paths: { [pathName]: { parameters: item.parameters, post: operation } },
    errorExamples: errorExamples(document, ['400', '401', '403', '429', '500']),
    components: componentClosure(document, [item.parameters ?? null, operation, ...alsoKept]),
  } as JsonObject;
  writeJson(join(here, 'whatsapp', 'whatsapp-cloud-messages.reference.json'), reference);
}

function extractTwilio(gitDir: string): void {
  const file = 'spec/json/twilio_api_v2010.json';
  const document = JSON.parse(gitShow(gitDir, file)) as JsonObject;
  const pathName = '/2010-04-01/Accounts/{AccountSid}/Messages.json';
  const item = (document.paths as JsonObject)[pathName] as JsonObject;
  const operation = item.post as JsonObject;
  const changes = gitShow(gitDir, 'CHANGES.md').match(/Version (\d+\.\d+\.\d+)/)?.[1] ?? 'unknown';
  const reference = {
    source: {
      repository: 'twilio/twilio-oai',
      path: file,
      ...gitCommit(gitDir),
      release: changes,
      licence: licence(gitDir),
      note: 'A cut of the published document: the create-message operation and the schemas it reaches. The document publishes no error responses; the error shape the stand-in answers with is the one the official twilio-node library parses (RestException: code, message, more_info, status).',
    },
    openapi: document.openapi,
    info: { title: (document.info as JsonObject).title, version: (document.info as JsonObject).version },
    servers: document.servers,
    security: document.security,
    paths: { [pathName]: { servers: item.servers, post: operation } },
    components: {
      securitySchemes: (document.components as JsonObject).securitySchemes ?? null,
      ...componentClosure(document, [operation]),
    },
  } as JsonObject;
  writeJson(join(here, 'twilio', 'twilio-messages.reference.json'), reference);
}

const [facebookGitDir, twilioGitDir] = process.argv.slice(2);
if (!facebookGitDir || !twilioGitDir) {
  console.error('Usage: extract-references.ts <facebook/openapi git dir> <twilio/twilio-oai git dir>');
  process.exit(2);
}
extractWhatsApp(facebookGitDir);
extractTwilio(twilioGitDir);
console.log('Wrote the WhatsApp Cloud and Twilio reference cuts.');
