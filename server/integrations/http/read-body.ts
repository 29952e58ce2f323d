import { IntegrationError } from './integration-error.ts';
import type { HttpResponse } from './safe-http-client.ts';

/** The body as JSON; an empty body is null. A body that is not JSON is an invalid_body error. */
export function jsonBody(response: HttpResponse): unknown {
  const text = response.body.toString('utf8');
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new IntegrationError('invalid_body', `The answer from ${new URL(response.url).host} is not valid JSON.`);
  }
}

/** JSON when the server says so (or it parses), else the text itself: the protocol level hands back what came. */
export function lenientBody(response: HttpResponse): unknown {
  const type = response.headers['content-type'] ?? '';
  if (/json/i.test(type)) return jsonBody(response);
  const text = response.body.toString('utf8');
  return text;
}
