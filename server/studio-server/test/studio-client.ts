import type { Role } from '../../ports/roles.ts';

export interface StudioResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
}

/**
 * A browser-like studio client over real HTTP: keeps the session cookie it is given, sends the
 * CSRF token and the studio's own Origin on writes, as the studio page does. Every answer is
 * kept, so tests can search all of them.
 */
export class StudioClient {
  cookie: string | undefined;
  csrf: string | undefined;
  bearer: string | undefined;
  readonly answers: StudioResponse[] = [];

  constructor(
    readonly base: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<StudioResponse> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.bearer ? { authorization: `Bearer ${this.bearer}` } : {}),
        ...(method !== 'GET' && method !== 'HEAD'
          ? { origin: new URL(this.base).origin, ...(this.csrf ? { 'x-csrf-token': this.csrf } : {}) }
          : {}),
        ...this.extraHeaders,
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const setCookie = res.headers.getSetCookie().find((line) => /^(__Host-studio|studio_session)=/.test(line));
    if (setCookie) {
      const pair = setCookie.split(';')[0]!;
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed && typeof parsed === 'object' && typeof (parsed as { csrfToken?: unknown }).csrfToken === 'string')
      this.csrf = (parsed as { csrfToken: string }).csrfToken;
    const answer = { status: res.status, headers: res.headers, text, body: parsed };
    this.answers.push(answer);
    return answer;
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.request('POST', path, body ?? {}, headers);
  put = (path: string, body?: unknown) => this.request('PUT', path, body ?? {});
  patch = (path: string, body?: unknown) => this.request('PATCH', path, body ?? {});
  delete = (path: string) => this.request('DELETE', path);

  async login(email: string, password: string): Promise<StudioResponse> {
    return this.post('/studio/api/login', { email, password });
  }
}

/** The token of a setup link (`…/studio/setup#<token>`). */
export const linkToken = (link: string): string => link.slice(link.indexOf('#') + 1);

export const PASSWORD = 'correct horse battery staple';

/** Uses the first owner's setup link; answers the owner's client, signed in. */
export async function setUpOwner(base: string, setupLink: string, email = 'owner@example.com'): Promise<StudioClient> {
  const owner = new StudioClient(base);
  const res = await owner.post('/studio/api/setup', {
    token: linkToken(setupLink),
    email,
    name: 'Olive Owner',
    password: PASSWORD,
  });
  if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${res.text}`);
  return owner;
}

/** An owner invites `email` with `role`; the invitee uses the link; answers the invitee's client, signed in. */
export async function invite(owner: StudioClient, email: string, role: Role): Promise<StudioClient> {
  const invitation = await owner.post('/studio/api/accounts', { email, role });
  if (invitation.status !== 201) throw new Error(`invitation failed: ${invitation.status} ${invitation.text}`);
  const client = new StudioClient(owner.base);
  const res = await client.post('/studio/api/setup', {
    token: linkToken(invitation.body.link),
    name: `${role} person`,
    password: PASSWORD,
  });
  if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${res.text}`);
  return client;
}
