import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Obj = Record<string, unknown>;

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop in some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void;

/** Inlines every local $ref so each response schema compiles on its own (the document has no cycles). */
function deref(node: unknown, root: Obj): unknown {
  if (Array.isArray(node)) return node.map((n) => deref(n, root));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as Obj).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    let target: unknown = root;
    for (const part of ref.slice(2).split('/')) target = (target as Obj)[part];
    return deref(target, root);
  }
  const out: Obj = {};
  for (const [key, value] of Object.entries(node)) out[key] = deref(value, root);
  return out;
}

export interface ContractCheck {
  readonly ok: boolean;
  readonly problems: string[];
}

/** Checks real responses against the OpenAPI document: documented status, media type, body schema, required headers. */
export class Contract {
  private readonly doc: Obj;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly routes: { method: string; template: string; regex: RegExp; operation: Obj }[] = [];

  constructor(document: Obj) {
    this.doc = deref(document, document) as Obj;
    addFormats(this.ajv);
    for (const [template, item] of Object.entries(this.doc.paths as Obj)) {
      const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      for (const [method, operation] of Object.entries(item as Obj)) {
        this.routes.push({
          method: method.toUpperCase(),
          template,
          regex: new RegExp(`^${pattern}$`),
          operation: operation as Obj,
        });
      }
    }
    // Longer templates first, so /trigger/{a}/{d}/{mode} is not taken for /trigger/{a}/{d}.
    this.routes.sort((a, b) => b.template.split('/').length - a.template.split('/').length);
  }

  operation(method: string, path: string): { template: string; operation: Obj } | undefined {
    return this.routes.find((r) => r.method === method && r.regex.test(path));
  }

  async check(method: string, url: string, res: Response): Promise<ContractCheck> {
    const problems: string[] = [];
    const path = new URL(url).pathname;
    const found = this.operation(method, path);
    if (!found) return { ok: false, problems: [`${method} ${path} is not in the document`] };
    const responses = found.operation.responses as Obj;
    const response = (responses[String(res.status)] ?? responses.default) as Obj | undefined;
    const text = await res.text();
    if (!response) {
      problems.push(`${method} ${found.template}: status ${res.status} is not documented (body ${text.slice(0, 200)})`);
      return { ok: false, problems };
    }
    for (const [name, header] of Object.entries((response.headers ?? {}) as Obj)) {
      if ((header as Obj).required && res.headers.get(name) === null) problems.push(`header ${name} missing`);
    }
    if (res.status === 429 && !res.headers.get('retry-after')) problems.push('429 without Retry-After');
    const content = response.content as Obj | undefined;
    if (content) {
      const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
      const media = content[mediaType] as Obj | undefined;
      if (!media) problems.push(`${found.template} ${res.status}: media type ${mediaType} not documented`);
      else if (mediaType === 'application/json' && media.schema) {
        const key = `${method} ${found.template} ${res.status}`;
        let validate = this.cache.get(key);
        if (!validate) {
          validate = this.ajv.compile(media.schema as Obj);
          this.cache.set(key, validate);
        }
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          problems.push(`${key}: body is not JSON: ${text.slice(0, 200)}`);
        }
        if (body !== undefined && !validate(body))
          problems.push(`${key}: ${this.ajv.errorsText(validate.errors)} in ${text.slice(0, 300)}`);
      }
    }
    return { ok: problems.length === 0, problems };
  }

  /** Checks a request the server sent (a webhook of the document) against it: required headers, media type, body schema. */
  checkWebhook(
    name: string,
    request: { readonly headers: Readonly<Record<string, string | string[] | undefined>>; readonly body: string },
  ): ContractCheck {
    const problems: string[] = [];
    const operation = ((this.doc.webhooks as Obj | undefined)?.[name] as Obj | undefined)?.post as Obj | undefined;
    if (!operation) return { ok: false, problems: [`webhook ${name} is not in the document`] };
    for (const parameter of (operation.parameters ?? []) as Obj[]) {
      if (
        parameter.in === 'header' &&
        parameter.required &&
        request.headers[String(parameter.name).toLowerCase()] === undefined
      )
        problems.push(`header ${String(parameter.name)} missing`);
    }
    const mediaType = String(request.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    const media = ((operation.requestBody as Obj).content as Obj)[mediaType] as Obj | undefined;
    if (!media) return { ok: false, problems: [...problems, `media type ${mediaType} not documented`] };
    const validate = this.ajv.compile(media.schema as Obj);
    if (!validate(JSON.parse(request.body)))
      problems.push(`webhook ${name}: ${this.ajv.errorsText(validate.errors)} in ${request.body.slice(0, 300)}`);
    return { ok: problems.length === 0, problems };
  }

  /** Checks an event delivery a subscriber received against the document's webhook of its kind: required headers and body schema. */
  checkDelivery(kind: string, headers: Record<string, string | string[] | undefined>, raw: string): ContractCheck {
    const problems: string[] = [];
    const post = ((this.doc.webhooks as Obj | undefined)?.[kind] as Obj | undefined)?.post as Obj | undefined;
    if (!post) return { ok: false, problems: [`webhook ${kind} is not in the document`] };
    for (const parameter of (post.parameters ?? []) as Obj[]) {
      if (parameter.in !== 'header') continue;
      const name = String(parameter.name);
      const value = headers[name.toLowerCase()];
      if (value === undefined) {
        if (parameter.required) problems.push(`${kind}: header ${name} missing`);
        continue;
      }
      const validate = this.compiled(`webhook ${kind} header ${name}`, parameter.schema as Obj);
      if (!validate(value))
        problems.push(
          `${kind}: header ${name}: ${this.ajv.errorsText(validate.errors)} in ${String(value).slice(0, 100)}`,
        );
    }
    const schema = (((post.requestBody as Obj).content as Obj)['application/json'] as Obj).schema as Obj;
    const validate = this.compiled(`webhook ${kind} body`, schema);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      problems.push(`${kind}: body is not JSON: ${raw.slice(0, 200)}`);
    }
    if (body !== undefined && !validate(body))
      problems.push(`${kind}: ${this.ajv.errorsText(validate.errors)} in ${raw.slice(0, 300)}`);
    return { ok: problems.length === 0, problems };
  }

  private compiled(key: string, schema: Obj): ValidateFunction {
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.cache.set(key, validate);
    }
    return validate;
  }
}
