import { json, startStandIn, type StandIn } from './stand-in.ts';

/**
 * OpenAI Chat Completions (platform.openai.com/docs/api-reference/chat/create), as OpenAI and the
 * compatible local servers (Ollama, vLLM, llama.cpp) serve it: POST {base}/chat/completions with
 * Authorization: Bearer <key> (local servers take none), JSON {model, messages: [{role, content}],
 * temperature 0..2, max_tokens | max_completion_tokens, response_format {type: "json_schema",
 * json_schema: {name, schema, strict}}}. 200 {id, object: "chat.completion", created, model,
 * choices: [{index, message: {role: "assistant", content}, finish_reason}], usage: {prompt_tokens,
 * completion_tokens, total_tokens}}. Errors as {"error": {message, type, param, code}}: 401
 * invalid_api_key (its message shows the key masked), 429 rate_limit_exceeded, 500 server_error.
 */
export async function startOpenAi(options: {
  key?: string;
  answer: (body: Record<string, unknown>) => string;
  usage?: boolean;
}): Promise<StandIn> {
  return startStandIn('openai', (req, mode, check) => {
    const path = new URL(req.url, 'http://stand-in').pathname;
    check
      .method('POST')
      .that(path === '/v1/chat/completions', `path ${path}, the reference says /v1/chat/completions`)
      .header('content-type', /^application\/json/);
    if (options.key) check.header('authorization', `Bearer ${options.key}`);
    else check.noHeader('authorization');
    const body = check.jsonBody();
    const messages = body.messages as { role?: unknown; content?: unknown }[] | undefined;
    check
      .that(typeof body.model === 'string' && body.model !== '', '"model" is required')
      .that(
        Array.isArray(messages) &&
          messages.length > 0 &&
          messages.every(
            (m) =>
              ['system', 'user', 'assistant', 'developer'].includes(String(m.role)) && typeof m.content === 'string',
          ),
        '"messages" is a list of {role, content}',
      )
      .that(
        body.temperature === undefined ||
          (typeof body.temperature === 'number' && body.temperature >= 0 && body.temperature <= 2),
        '"temperature" is a number from 0 to 2',
      )
      .that(body.max_tokens === undefined || Number.isInteger(body.max_tokens), '"max_tokens" is an integer')
      .that(
        body.max_completion_tokens === undefined || Number.isInteger(body.max_completion_tokens),
        '"max_completion_tokens" is an integer',
      )
      .that(
        !(body.max_tokens !== undefined && body.max_completion_tokens !== undefined),
        'max_tokens and max_completion_tokens are not sent together',
      );
    const format = body.response_format as
      { type?: unknown; json_schema?: { name?: unknown; schema?: unknown; strict?: unknown } } | undefined;
    if (format !== undefined) {
      check.that(
        format.type === 'json_schema' &&
          typeof format.json_schema?.name === 'string' &&
          /^[A-Za-z0-9_-]{1,64}$/.test(format.json_schema.name) &&
          typeof format.json_schema.schema === 'object',
        'response_format is {type: "json_schema", json_schema: {name, schema, strict}}',
      );
    }
    if (mode === 'unauthorized') {
      const masked = options.key ? `${options.key.slice(0, 7)}****${options.key.slice(-4)}` : 'none';
      return (res) =>
        json(res, 401, {
          error: {
            message: `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`,
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        });
    }
    if (mode === 'rate_limited') {
      return (res) =>
        json(res, 429, {
          error: {
            message: `Rate limit reached for ${String(body.model)} in organization org-stand-in on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.`,
            type: 'requests',
            param: null,
            code: 'rate_limit_exceeded',
          },
        });
    }
    if (mode === 'server_error') {
      return (res) =>
        json(res, 500, {
          error: {
            message: 'The server had an error while processing your request. Sorry about that!',
            type: 'server_error',
            param: null,
            code: null,
          },
        });
    }
    const content = options.answer(body);
    const prompt = Math.ceil(JSON.stringify(messages).length / 4);
    const completion = Math.ceil(content.length / 4);
    return (res) =>
      json(res, 200, {
        id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
        object: 'chat.completion',
        created: 1741569952,
        model: `${String(body.model)}-2024-07-18`,
        system_fingerprint: 'fp_44709d6fcb',
        choices: [
          { index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' },
        ],
        ...(options.usage === false
          ? {}
          : { usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } }),
      });
  });
}
