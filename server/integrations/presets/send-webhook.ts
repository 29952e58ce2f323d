import { signWebhook } from '../../app/webhook-signature.ts';
import { defineStepType } from '../step-contract/define-step-type.ts';
import type { StepContext } from '../step-contract/step-type.ts';
import { failure, secretName } from './schema-parts.ts';

/** Headers a step may not set itself: credentials go through secrets, and the signature is the step's. */
const RESERVED =
  /^(authorization|proxy-authorization|cookie|x-functions-key|x-signature|x-timestamp|content-type|content-length|host)$/i;

/** Send a webhook: a JSON body to a URL (an n8n, Zapier or Make webhook, or any API), optionally signed. */
export const sendWebhook = defineStepType({
  name: 'sendWebhook',
  level: 'action',
  description:
    "Sends data to a web address (an n8n, Zapier or Make webhook, or your own), signed when a signing secret is chosen, so the receiver can tell it came from this bot; the result holds the answer's status and content.",
  service: 'optional',
  secrets: ['urlSecret', 'signingSecret'],
  fixed: ['url'],
  params: {
    type: 'object',
    properties: {
      url: {
        type: 'string',
        format: 'uri',
        pattern: '^https?://',
        description:
          "Where the data goes, e.g. an n8n Webhook node's production URL. Written as it is (no {{templates}}); give urlSecret instead when the address itself grants access.",
      },
      urlSecret: secretName(
        'Instead of the address: the secret holding it, for an address that itself grants access (a Zapier catch hook, a Make webhook); it is kept out of the integration log.',
      ),
      method: { enum: ['POST', 'PUT', 'PATCH'], default: 'POST', description: 'The HTTP method.' },
      body: {
        default: {},
        description:
          'The data to send: a text, a number, a list or named values; {{variables}} and {{userData.x}} are filled in.',
      },
      signingSecret: secretName(
        'The secret to sign with, so the receiver can check that the data came from this bot and was not changed. The receiver is given the same secret; the integration guide shows how it checks the signature.',
      ),
      headers: {
        type: 'object',
        maxProperties: 20,
        additionalProperties: { type: 'string', maxLength: 1000 },
        default: {},
        description:
          "More headers to send, by name (not sign-in ones, nor the signature's), e.g. x-source with the value chatbot.",
      },
    },
    oneOf: [{ required: ['url'] }, { required: ['urlSecret'] }],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: {
      status: { type: 'integer', description: 'The HTTP status of the answer (2xx; any other fails the step).' },
      body: { description: 'The answer: parsed JSON, else its text; null when empty.' },
    },
    required: ['status', 'body'],
  },
  async call(ctx: StepContext) {
    const params = ctx.params as {
      url?: string;
      method: 'POST' | 'PUT' | 'PATCH';
      body: unknown;
      headers: Record<string, string>;
      signingSecret?: string;
    };
    const reserved = Object.keys(params.headers).filter((name) => RESERVED.test(name));
    if (reserved.length > 0)
      throw failure(
        `The header(s) ${reserved.join(', ')} cannot be set in headers; name secrets in signingSecret or urlSecret instead.`,
        'invalid_params',
      );
    const url = params.url ?? ctx.secret('urlSecret')!;
    const text = JSON.stringify(params.body);
    const headers: Record<string, string> = { ...params.headers, 'content-type': 'application/json' };
    const key = ctx.secret('signingSecret');
    if (key !== undefined) {
      const timestamp = String(Math.floor(Date.now() / 1000));
      headers['x-timestamp'] = timestamp;
      headers['x-signature'] = signWebhook(key, timestamp, text);
    }
    // `json` is serialised with JSON.stringify, as `text` was: the signature covers the very bytes sent.
    const response = await ctx.request({ method: params.method, url, headers, json: params.body });
    return { status: response.status, body: response.body };
  },
});
