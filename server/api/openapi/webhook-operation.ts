import { json, ref, requiredBody, type Obj } from './operation-parts.ts';

/** How a vendor's webhook is answered once its delivery is stored (or was stored before). */
export const taken = json(
  { type: 'object', required: ['ok'], properties: { ok: { const: true } } },
  'Taken (or already taken).',
);

export interface WebhookPost {
  readonly operationId: string;
  /** The security scheme the vendor signs with. */
  readonly scheme: string;
  readonly summary: string;
  readonly description: string;
  /** The body's media types and schemas. */
  readonly content: Obj;
  /** The refusals, and a success other than `taken`. */
  readonly responses: Obj;
}

/** A vendor's signed POST to its webhook (channels/connector/): taken with 200, a crash a 500 like any route's. */
export const webhookPost = ({ operationId, scheme, summary, description, content, responses }: WebhookPost): Obj => ({
  operationId,
  tags: ['Channel webhooks'],
  security: [{ [scheme]: [] }],
  summary,
  description,
  requestBody: requiredBody(content),
  responses: { '200': taken, ...responses, '500': ref('responses/Internal') },
});
