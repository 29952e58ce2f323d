import { HttpError } from '../ports/http-error.ts';
import { optionParts } from './option-parts.ts';
import type { CommandIo } from './check-command.ts';

/** Where `chatbot pull` and `push` reach the studio, and with which API token. */
export interface StudioTarget {
  readonly url: string;
  readonly token: string;
}

/** A failed call in the studio's words: the status, catalogue code and sentence it answered. */
export class StudioCallError extends HttpError {
  override readonly name = 'StudioCallError';
}

/** Options shared by pull and push: `--url`, `--token` (else CHATBOT_URL, CHATBOT_TOKEN). Returns the rest of the arguments. */
export function studioTarget(
  args: readonly string[],
  env: CommandIo['env'],
): { target?: StudioTarget; rest: string[]; problem?: string } {
  const rest: string[] = [];
  let url = env.CHATBOT_URL;
  let token = env.CHATBOT_TOKEN;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [name, inline] = optionParts(arg);
    if (name === '--url' || name === '--token') {
      const value = inline ?? args[++i];
      if (value === undefined) return { rest, problem: `${name} needs a value` };
      if (name === '--url') url = value;
      else token = value;
    } else rest.push(arg);
  }
  if (!token)
    return {
      rest,
      problem: 'no API token: set CHATBOT_TOKEN or pass --token (create one in the studio under Settings → API tokens)',
    };
  const base = (url ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  try {
    const parsed = new URL(base);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
  } catch {
    return {
      rest,
      problem: `--url must be the bot's address such as https://bot.example.com (got ${JSON.stringify(base)})`,
    };
  }
  return { target: { url: base, token }, rest };
}

/** One call to /studio/api with the token; a catalogue error becomes a StudioCallError. */
export async function studioCall(
  target: StudioTarget,
  method: string,
  path: string,
  body?: { readonly type: string; readonly text: string },
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`${target.url}/studio/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${target.token}`,
        accept: 'application/json',
        ...(body ? { 'content-type': body.type } : {}),
      },
      ...(body ? { body: body.text } : {}),
      redirect: 'error',
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    throw new StudioCallError(
      0,
      'unreachable',
      `cannot reach ${target.url}: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`,
    );
  }
  if (res.ok) return res;
  const payload = (await res.json().catch(() => undefined)) as
    { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined;
  const error = payload?.error;
  throw new StudioCallError(
    res.status,
    error?.code ?? 'http_error',
    error?.message ?? `the server answered ${res.status} ${res.statusText}`,
    error?.details,
  );
}

export async function studioJson<T>(target: StudioTarget, method: string, path: string, body?: unknown): Promise<T> {
  const res = await studioCall(
    target,
    method,
    path,
    body === undefined ? undefined : { type: 'application/json', text: JSON.stringify(body) },
  );
  return (await res.json()) as T;
}
