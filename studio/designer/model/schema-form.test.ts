import { describe, expect, it } from 'vitest';
import { editorSchema } from '../../../server/bot/editor-schema.ts';
import { PRESET_STEP_TYPES } from '../../../server/integrations/presets/index.ts';
import { BUILT_IN_STEP_TYPES } from '../../../server/integrations/step-types/registry.ts';
import { botFields, fieldSpec, paramsFields, stepFields, stepKinds, type FieldSpec } from './schema-form.ts';

const schema = JSON.parse(editorSchema()) as Record<string, unknown>;
const byKey = (fields: readonly FieldSpec[]) => Object.fromEntries(fields.map((f) => [f.key, f]));

describe('forms from the editor schema', () => {
  it('when the step kinds are read, then every kind of the engine is there with its description', () => {
    const kinds = stepKinds(schema);
    expect(kinds.map((k) => k.type)).toEqual([
      'message',
      'input',
      'condition',
      'set',
      'goto',
      'wait',
      'event',
      'clearUserData',
      'email',
      'sms',
      'nlp',
      'faq',
      'integration',
      'linkChannels',
      'end',
    ]);
    expect(kinds.every((k) => k.description.length > 10)).toBe(true);
  });

  it("when an input step's form is made, then enums are choices with defaults, targets and saving are pickers, required is marked and help is the description", () => {
    const fields = byKey(stepFields(schema, 'input'));
    expect(fields.prompt).toMatchObject({ widget: 'template', required: true });
    expect(fields.prompt!.description).toMatch(/question/);
    expect(fields.inputType).toMatchObject({ widget: 'choice', default: 'text', required: false });
    expect(fields.inputType!.enum).toContain('regex');
    expect(fields.onMaxRetries!.widget).toBe('target');
    expect(fields.saveTo!.widget).toBe('saveTo');
    expect(fields.maxRetries).toMatchObject({ widget: 'number', integer: true, minimum: 0, maximum: 20, default: 3 });
    expect(fields.choices).toMatchObject({ widget: 'rows', maxItems: 13 });
    expect(byKey(fields.choices!.fields!).then!.widget).toBe('target');
    expect(stepFields(schema, 'input').at(-1)!.key).toBe('next');
  });

  it("when a message step's form is made, then buttons are rows of three kinds and quick replies are rows of label and payload", () => {
    const fields = byKey(stepFields(schema, 'message'));
    expect(fields.buttons!.variants!.key).toBe('kind');
    expect(fields.buttons!.variants!.options.map((o) => o.value)).toEqual(['postback', 'url', 'dialog']);
    expect(byKey(fields.buttons!.variants!.options[2]!.fields).dialog!.widget).toBe('dialog');
    expect(fields.quickReplies!.fields!.map((f) => f.key)).toEqual(['label', 'payload']);
    expect(fields.image!.widget).toBe('group');
  });

  it("when other kinds' forms are made, then conditions get the builder, gotos pick a dialog and its step, integrations their error policy", () => {
    expect(byKey(stepFields(schema, 'condition')).branches!.widget).toBe('branches');
    expect(byKey(stepFields(schema, 'goto'))).toMatchObject({
      dialog: { widget: 'dialog' },
      step: { widget: 'stepOfSibling' },
    });
    const integration = byKey(stepFields(schema, 'integration'));
    expect(integration.onError).toMatchObject({ widget: 'integrationError', default: 'fatal' });
    expect(integration.integration!.widget).toBe('stepType');
    expect(byKey(stepFields(schema, 'set')).actions!.fields!.map((f) => f.widget)).toEqual([
      'choice',
      'variableName',
      'userDataField',
      'json',
      'template',
    ]);
    expect(byKey(stepFields(schema, 'wait')).cancelOn!.widget).toBe('group');
  });

  it("when a step type's parameters are read, then its own schema gives the fields (a customer's type gets a form with no studio code)", () => {
    const http = BUILT_IN_STEP_TYPES.find((t) => t.name === 'http')!;
    const fields = byKey(paramsFields(http.paramsSchema as Record<string, unknown>));
    expect(fields.endpoint).toMatchObject({ widget: 'template', required: true });
    expect(fields.method).toMatchObject({ widget: 'choice', default: 'GET' });
    expect(fields.headers!.widget).toBe('keyValue');
    expect(fields.body!.widget).toBe('json');
    const own = byKey(
      paramsFields({
        type: 'object',
        properties: { sheet: { type: 'string', description: 'The sheet' }, rows: { type: 'integer', minimum: 1 } },
        required: ['sheet'],
      }),
    );
    expect(own.sheet).toMatchObject({ widget: 'template', required: true, description: 'The sheet' });
    expect(own.rows).toMatchObject({ widget: 'number', integer: true, minimum: 1 });
  });

  it("when a step type's parameter names a secret, then it is picked from the studio's secrets like a service's, and the address beside it stays typed", () => {
    for (const type of PRESET_STEP_TYPES) {
      const fields = paramsFields(type.paramsSchema as Record<string, unknown>);
      const secrets = fields.filter((field) => field.key.endsWith('Secret'));
      for (const field of secrets) expect(field.widget, `${type.name}.${field.key}`).toBe('secret');
    }
    const webhook = byKey(
      paramsFields(PRESET_STEP_TYPES.find((t) => t.name === 'sendWebhook')!.paramsSchema as Record<string, unknown>),
    );
    expect(webhook.urlSecret!.widget).toBe('secret');
    expect(webhook.signingSecret!.widget).toBe('secret');
    expect(webhook.url!.widget).toBe('template');
  });

  it("when the bot's services are read, then they are a map of named forms: base URL required, sign-in as kinds each with its own fields, secrets picked, names checked", () => {
    const integrations = byKey(byKey(botFields(schema)).integrations!.fields!);
    const services = integrations.services!;
    expect(services).toMatchObject({ widget: 'record', keyPattern: '^[A-Za-z][\\w-]{0,63}$' });
    const service = byKey(services.values!.fields!);
    expect(service.baseUrl).toMatchObject({ widget: 'text', required: true });
    expect(service.baseUrl!.description).toMatch(/base URL|address/i);
    const auth = service.auth!;
    expect(auth.widget).toBe('group');
    expect(auth.variants!.key).toBe('type');
    expect(auth.variants!.options.map((o) => o.value)).toEqual([
      'none',
      'basic',
      'bearer',
      'bearer-user',
      'oauth2-client-credentials',
    ]);
    const bearer = byKey(auth.variants!.options.find((o) => o.value === 'bearer')!.fields);
    expect(bearer.tokenEnv).toMatchObject({ widget: 'secret', required: true });
    const oauth = byKey(auth.variants!.options.find((o) => o.value === 'oauth2-client-credentials')!.fields);
    expect(oauth.credentialsIn).toMatchObject({ widget: 'choice', enum: ['header', 'body'], default: 'header' });
    // A dataset's source names a service: picked from the defined ones like an integration step's.
    expect(byKey(byKey(integrations.datasets!.fields!).source!.fields!).service!.widget).toBe('service');
  });

  it('when any object maps names to objects, then it gets the record form; a map of plain values stays name/value rows', () => {
    const map = fieldSpec(
      {},
      'tables',
      {
        type: 'object',
        additionalProperties: { type: 'object', properties: { seats: { type: 'integer' } }, required: ['seats'] },
      },
      false,
    );
    expect(map.widget).toBe('record');
    expect(map.values!.fields!.map((f) => [f.key, f.widget, f.required])).toEqual([['seats', 'number', true]]);
    expect(fieldSpec({}, 'labels', { type: 'object', additionalProperties: { type: 'string' } }, false).widget).toBe(
      'keyValue',
    );
  });
});
