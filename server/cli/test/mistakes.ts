/**
 * Typical mistakes in a bot definition, each in a small bot of its own, with the line `check`
 * prints for it (start-up prints the same line under "Bot definition … is invalid:").
 */
export interface Mistake {
  readonly name: string;
  /** The file's text; written as bot.json (or bot.yaml when `yaml`). */
  readonly text: string;
  readonly yaml?: boolean;
  readonly expected: string;
}

const settings = { id: 'shop', name: 'Shop', startDialog: 'main' };
const bot = (steps: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ settings, userDataFields: ['name'], dialogs: [{ id: 'main', steps }], ...extra }, null, 2);
const service = { crm: { baseUrl: 'https://crm.example.com/' } };
const places = { datasets: [{ name: 'places' }] };

export const MISTAKES: readonly Mistake[] = [
  {
    name: 'an integration step has a parameter its type does not take',
    text: bot(
      [
        {
          id: 'create',
          type: 'integration',
          integration: 'createUser',
          service: 'crm',
          params: { email: 'a@example.com', name: 'A', surname: 'B', nickname: 'x' },
        },
      ],
      { integrations: { services: service } },
    ),
    expected: 'dialogs[0].steps[0].params: unknown property "nickname"',
  },
  {
    name: 'an integration parameter is misspelt',
    text: bot(
      [{ id: 'near', type: 'integration', integration: 'queryDataset', params: { dataset: 'places', limt: 5 } }],
      { integrations: places },
    ),
    expected: 'dialogs[0].steps[0].params: unknown property "limt" (did you mean "limit"?)',
  },
  {
    name: 'a JSONata mapping does not parse',
    text: bot(
      [
        {
          id: 'events',
          type: 'integration',
          integration: 'listUserEvents',
          service: 'crm',
          params: { userId: '{{userId}}' },
          mapping: '$.{',
        },
      ],
      { integrations: { services: service } },
    ),
    expected: 'dialogs[0].steps[0].mapping: the JSONata mapping does not parse: Expected ":" before end of expression',
  },
  {
    name: 'a dataset has a bad config',
    text: bot([{ id: 'hi', type: 'message', text: 'hi' }], {
      integrations: { datasets: [{ name: 'places', refreshIntervalSec: 1, fields: { id: 'id' } }] },
    }),
    expected: 'integrations.datasets[0].refreshIntervalSec: must be at least 10 (got 1)',
  },
  {
    name: "a secret's environment variable is unset",
    text: bot([{ id: 'hi', type: 'message', text: 'hi' }], {
      integrations: {
        services: {
          crm: { baseUrl: 'https://crm.example.com/', auth: { type: 'bearer', tokenEnv: 'CRM_TOKEN_NOT_SET' } },
        },
      },
    }),
    expected:
      'integrations.services.crm.auth: the environment variable CRM_TOKEN_NOT_SET is not set; it must hold the secret this integration authenticates with',
  },
  {
    name: 'a condition uses an unknown op',
    text: bot([
      { id: 'ask', type: 'condition', branches: [{ when: { variable: 'name', op: 'gt', value: 1 }, then: 'ask' }] },
    ]),
    expected:
      'dialogs[0].steps[0].branches[0].when.op: "gt" is not allowed. Allowed: "equals", "notEquals", "empty", "notEmpty", "greater", "less", "contains", "matches", "in"',
  },
  {
    name: 'the JSON has a syntax error',
    text: '{\n  "settings": {\n    "id": "shop",\n  }\n}\n',
    expected:
      'line 4, column 3: not valid JSON: Expected double-quoted property name. Remove the comma before it: JSON allows no trailing comma',
  },
  {
    name: 'a key is misspelt',
    text: bot([{ id: 'hi', type: 'message', text: 'hi', quick_replies: [{ label: 'Yes', payload: 'yes' }] }]),
    expected: 'dialogs[0].steps[0].quick_replies: unknown key "quick_replies". Did you mean "quickReplies"?',
  },
  {
    name: 'a template names a variable with a typo',
    text: bot([
      { id: 'ask', type: 'input', prompt: 'Your name?', saveTo: { userData: 'name' } },
      { id: 'hi', type: 'message', text: 'Nice to meet you, {{nmae}}!' },
    ]),
    expected:
      'dialogs[0].steps[1].text: {{nmae}} is not a user-data field, a variable a step sets or a built-in. Did you mean {{name}}?',
  },
  {
    name: 'a dataset query has a radius but no point',
    text: bot(
      [{ id: 'near', type: 'integration', integration: 'queryDataset', params: { dataset: 'places', radiusKm: 5 } }],
      { integrations: places },
    ),
    expected: 'dialogs[0].steps[0].params: "radiusKm" needs "lat" as well; "radiusKm" needs "lon" as well',
  },
  {
    name: 'a step type is misspelt',
    text: bot([{ id: 'hi', type: 'mesage', text: 'hi' }]),
    expected:
      'dialogs[0].steps[0].type: unknown type "mesage". Did you mean "message"? Allowed: "message", "input", "condition", "set", "goto", "wait", "event", "clearUserData", "email", "sms", "nlp", "faq", "integration", "linkChannels", "end"',
  },
  {
    name: 'a YAML definition has a template typo',
    yaml: true,
    text: 'settings: { id: shop, name: Shop, startDialog: main }\nuserDataFields: [name]\ndialogs:\n  - id: main\n    steps:\n      # greets by name\n      - id: hi\n        type: message\n        text: Hi {{nmae}}\n',
    expected:
      'dialogs[0].steps[0].text (line 9): {{nmae}} is not a user-data field, a variable a step sets or a built-in. Did you mean {{name}}?',
  },
];
