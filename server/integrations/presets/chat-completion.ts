import { Ajv, type ValidateFunction } from 'ajv';
import { defineStepType } from '../step-contract/define-step-type.ts';
import type { StepContext } from '../step-contract/step-type.ts';
import { baseUrl, failure, secretName, under } from './schema-parts.ts';

interface ChatParams {
  baseUrl: string;
  apiKeySecret?: string;
  model: string;
  system?: string;
  prompt: string;
  temperature?: number;
  maxTokens: number;
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  jsonSchema?: Record<string, unknown>;
  schemaName: string;
  strictSchema: boolean;
  dailyTokenBudget?: number;
}

interface Completion {
  model?: unknown;
  choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown };
}

// Only for answers checked against the step's own jsonSchema; compiled once per schema.
const ajv = new Ajv({ strict: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();

const count = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;

/**
 * A chat completion from any server speaking OpenAI's Chat Completions API: OpenAI itself, or a
 * local Ollama, vLLM or llama.cpp server. The prompt is a template the step fills from the
 * conversation; with a JSON schema the answer is structured output, checked against it and
 * handed over as `data`. A daily token budget per user (UTC day) stops a user from running up
 * the bill: once spent, the step fails as rate_limited until midnight UTC.
 */
export const chatCompletion = defineStepType({
  name: 'chatCompletion',
  level: 'action',
  description:
    "Asks a language model, through any server that speaks OpenAI's chat API (OpenAI itself, or Ollama, vLLM or llama.cpp run locally), a prompt filled from the conversation; the answer can be held to a shape, and each user has a daily budget of tokens. The result holds the answer's text, and its data when a shape is given.",
  service: 'optional',
  secrets: ['apiKeySecret'],
  fixed: ['baseUrl'],
  params: {
    type: 'object',
    properties: {
      baseUrl: baseUrl(
        "The API's address up to /chat/completions: OpenAI https://api.openai.com/v1/, Ollama http://127.0.0.1:11434/v1/, vLLM http://<host>:8000/v1/, llama.cpp http://<host>:8080/v1/.",
        'https://api.openai.com/v1/',
      ),
      apiKeySecret: secretName(
        'The secret holding the API key, sent as a bearer token; leave it out for a local server that asks for none.',
      ),
      model: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: 'The model, e.g. "gpt-4o-mini", or a local one such as "llama3.1:8b".',
      },
      system: {
        type: 'string',
        maxLength: 20000,
        description: 'Instructions for the model (the system message); {{variables}} are filled in.',
      },
      prompt: {
        type: 'string',
        minLength: 1,
        maxLength: 20000,
        description: 'The user message: a template, e.g. "Answer in one sentence: {{question}}".',
      },
      temperature: {
        type: 'number',
        minimum: 0,
        maximum: 2,
        description: "Randomness, 0 (steady) to 2; the server's default when left out.",
      },
      maxTokens: {
        type: 'integer',
        minimum: 1,
        maximum: 32000,
        default: 500,
        description: 'Most tokens the answer may have.',
      },
      maxTokensField: {
        enum: ['max_tokens', 'max_completion_tokens'],
        default: 'max_tokens',
        description:
          "How maxTokens is sent: max_tokens (local servers and most models) or max_completion_tokens (OpenAI's reasoning models, which refuse max_tokens).",
      },
      jsonSchema: {
        type: 'object',
        description:
          'A schema the answer must fit (structured output): the answer, read into that shape, becomes its data, e.g. {{answer.data.city}}. With strictSchema, OpenAI needs every property required and additionalProperties false.',
      },
      schemaName: {
        type: 'string',
        pattern: '^[A-Za-z0-9_-]{1,64}$',
        default: 'answer',
        description: "The schema's name, as the API asks for one.",
      },
      strictSchema: {
        type: 'boolean',
        default: true,
        description: "Ask the server to hold the answer to the schema exactly (OpenAI's strict mode).",
      },
      dailyTokenBudget: {
        type: 'integer',
        minimum: 1,
        description:
          'Most tokens one user may spend a day (UTC) on this step type, over all its steps; past it the step fails as rate_limited.',
      },
    },
    required: ['model', 'prompt'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The answer as the model wrote it.' },
      data: { description: 'With jsonSchema: the answer parsed and checked against it; else null.' },
      model: { type: 'string', description: 'The model that answered.' },
      finishReason: {
        type: ['string', 'null'],
        description: 'Why the answer ended: "stop", or "length" when maxTokens cut it.',
      },
      usage: {
        type: 'object',
        description: 'Tokens this call used.',
        properties: {
          promptTokens: { type: 'integer', description: 'Tokens of the prompt.' },
          completionTokens: { type: 'integer', description: 'Tokens of the answer.' },
          totalTokens: { type: 'integer', description: 'Both together: what the daily budget counts.' },
        },
        required: ['promptTokens', 'completionTokens', 'totalTokens'],
      },
    },
    required: ['text', 'data', 'model', 'finishReason', 'usage'],
  },
  async call(ctx: StepContext) {
    const params = ctx.params as unknown as ChatParams;
    const budget = params.dailyTokenBudget === undefined ? undefined : ctx.usage('tokens');
    if (budget && (await budget.read()) >= params.dailyTokenBudget!) {
      throw failure(
        `This user's daily budget of ${params.dailyTokenBudget} tokens is spent; it starts again at midnight UTC.`,
        'rate_limited',
      );
    }
    const key = ctx.secret('apiKeySecret');
    const messages = [
      ...(params.system ? [{ role: 'system', content: params.system }] : []),
      { role: 'user', content: params.prompt },
    ];
    const response = await ctx.request({
      method: 'POST',
      url: under(params.baseUrl, 'chat/completions'),
      headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
      json: {
        model: params.model,
        messages,
        ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
        [params.maxTokensField]: params.maxTokens,
        ...(params.jsonSchema
          ? {
              response_format: {
                type: 'json_schema',
                json_schema: { name: params.schemaName, schema: params.jsonSchema, strict: params.strictSchema },
              },
            }
          : {}),
      },
    });
    const body = (response.body ?? {}) as Completion;
    const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
    const usage = {
      promptTokens: count(body.usage?.prompt_tokens) ?? 0,
      completionTokens: count(body.usage?.completion_tokens) ?? 0,
      totalTokens: count(body.usage?.total_tokens) ?? 0,
    };
    // Some local servers leave usage out: the budget then counts about four characters a token.
    if (usage.totalTokens === 0)
      usage.totalTokens =
        usage.promptTokens + usage.completionTokens ||
        Math.ceil((JSON.stringify(messages).length + String(choice?.message?.content ?? '').length) / 4);
    if (budget) await budget.add(usage.totalTokens);
    if (!choice?.message) throw failure("The model's server answered without a choice.", 'invalid_body');
    if (typeof choice.message.refusal === 'string' && choice.message.refusal !== '')
      throw failure(`The model refused: ${choice.message.refusal.slice(0, 300)}`, 'invalid_body');
    const text = typeof choice.message.content === 'string' ? choice.message.content : '';
    const finishReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
    let data: unknown = null;
    if (params.jsonSchema) {
      try {
        data = JSON.parse(text) as unknown;
      } catch {
        throw failure(
          finishReason === 'length'
            ? "The model's answer was cut at maxTokens before its JSON ended; raise maxTokens."
            : "The model's answer is not the JSON the schema asks for.",
          'invalid_body',
        );
      }
      const schemaKey = JSON.stringify(params.jsonSchema);
      let validate = validators.get(schemaKey);
      if (!validate) {
        try {
          validate = ajv.compile(params.jsonSchema);
        } catch (error) {
          throw failure(`jsonSchema is not a valid JSON Schema: ${(error as Error).message}`, 'invalid_params');
        }
        if (validators.size > 100) validators.clear();
        validators.set(schemaKey, validate);
      }
      if (!validate(data))
        throw failure(
          `The model's answer does not fit jsonSchema: ${ajv.errorsText(validate.errors)}.`,
          'invalid_body',
        );
    }
    return { text, data, model: typeof body.model === 'string' ? body.model : params.model, finishReason, usage };
  },
});
