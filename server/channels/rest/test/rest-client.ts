import type { TranscriptItem } from '../../../../shared/protocol.ts';

export interface RestAnswer {
  readonly status: number;
  readonly body: {
    seq?: number;
    duplicate?: boolean;
    messages: TranscriptItem[];
    events: { name: string; payload: Record<string, unknown> }[];
    complete: boolean;
    error?: { code: string; message: string; details?: Record<string, unknown> };
  };
}

/** A channel's side of the REST protocol, as a customer's connector would speak it. */
export function restClient(baseUrl: string, channel: string, key: string) {
  const url = (user: string) =>
    `${baseUrl}/api/channels/${encodeURIComponent(channel)}/users/${encodeURIComponent(user)}/messages`;
  return {
    async post(
      user: string,
      body: unknown,
      init: { key?: string; raw?: string; contentType?: string } = {},
    ): Promise<RestAnswer> {
      const response = await fetch(url(user), {
        method: 'POST',
        headers: { 'content-type': init.contentType ?? 'application/json', 'x-channel-key': init.key ?? key },
        body: init.raw ?? JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as RestAnswer['body'] };
    },
    async missed(user: string, after: number): Promise<{ status: number; messages: TranscriptItem[] }> {
      const response = await fetch(`${url(user)}?after=${after}`, { headers: { 'x-channel-key': key } });
      const body = (await response.json()) as { messages: TranscriptItem[] };
      return { status: response.status, messages: body.messages };
    },
  };
}

/** The texts of the bot's messages, in order. */
export function texts(items: readonly TranscriptItem[]): string[] {
  return items
    .filter((i) => i.from === 'bot')
    .map((i) => (i.message.type === 'text' ? i.message.text : `<${i.message.type}>`));
}
