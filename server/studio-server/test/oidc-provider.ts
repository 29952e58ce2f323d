import { createServer, type Server } from 'node:http';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import Provider from 'oidc-provider';

export interface TestPerson {
  readonly email: string;
  readonly name: string;
  readonly groups: readonly string[];
}

/** How the front of the provider treats ID tokens on their way to the client. */
export type Tampering = 'none' | 'forge' | 'expire';

export interface TestIdentityProvider {
  readonly issuer: string;
  tampering: Tampering;
  /** Registers the studio's callback (known once the chatbot server listens) and starts the provider. */
  start(redirectUri: string): Promise<void>;
  close(): Promise<void>;
}

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

/**
 * A real OpenID provider (the certified oidc-provider package) on loopback, with its development
 * sign-in pages, behind a front that passes everything through and, when told, alters the ID
 * token in the token response: re-signed with an attacker's key (forge), or with the provider's
 * own key but expired an hour ago (expire).
 */
export async function startIdentityProvider(
  people: Record<string, TestPerson>,
  clientId: string,
  clientSecret: string,
): Promise<TestIdentityProvider> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };
  let backend = 0;
  const state = { tampering: 'none' as Tampering };

  const resign = async (
    token: string,
    key: KeyObject,
    change: (claims: Record<string, unknown>) => Record<string, unknown>,
  ) => {
    const header = decodeProtectedHeader(token);
    return new SignJWT(change({ ...decodeJwt(token) }))
      .setProtectedHeader({ alg: header.alg!, kid: header.kid!, ...(header.typ ? { typ: header.typ } : {}) })
      .sign(key);
  };

  const front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      try {
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers))
          if (name !== 'host' && name !== 'connection' && typeof value === 'string') headers.set(name, value);
        // The provider names its endpoints after the host it was called at: the front's.
        headers.set('x-forwarded-host', req.headers.host ?? '');
        headers.set('x-forwarded-proto', 'http');
        const upstream = await fetch(`http://127.0.0.1:${backend}${req.url}`, {
          method: req.method,
          headers,
          redirect: 'manual',
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        let body = Buffer.from(await upstream.arrayBuffer());
        if (req.url?.startsWith('/token') && state.tampering !== 'none' && upstream.ok) {
          const answer = JSON.parse(body.toString('utf8')) as { id_token: string };
          const now = Math.floor(Date.now() / 1000);
          answer.id_token =
            state.tampering === 'forge'
              ? await resign(answer.id_token, attacker, (claims) => ({ ...claims, groups: ['studio-admins'] }))
              : await resign(answer.id_token, privateKey, (claims) => ({
                  ...claims,
                  iat: now - 7200,
                  exp: now - 3600,
                }));
          body = Buffer.from(JSON.stringify(answer));
        }
        const out: Record<string, string | string[]> = {};
        upstream.headers.forEach((value, name) => {
          if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'set-cookie'].includes(name))
            out[name] = value;
        });
        const cookies = upstream.headers.getSetCookie();
        if (cookies.length > 0) out['set-cookie'] = cookies;
        res.writeHead(upstream.status, out).end(body);
      } catch (error) {
        res.writeHead(502).end(String(error));
      }
    });
  });
  const issuer = `http://127.0.0.1:${await listen(front)}`;
  let provider: Server | undefined;

  return {
    issuer,
    get tampering() {
      return state.tampering;
    },
    set tampering(value: Tampering) {
      state.tampering = value;
    },
    async start(redirectUri) {
      const oidc = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        jwks: { keys: [jwk] },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
        // The claims in the ID token itself, as most company providers put groups there.
        conformIdTokenClaims: false,
        pkce: { required: () => true },
        findAccount: (_ctx, id) => {
          const person = people[id];
          if (!person) return undefined;
          return {
            accountId: id,
            claims: () => ({
              sub: id,
              email: person.email,
              email_verified: true,
              name: person.name,
              groups: [...person.groups],
            }),
          };
        },
        cookies: { keys: ['test-cookie-key-0123456789'] },
      });
      // Behind the front: believe its X-Forwarded-Host, so every endpoint is named at the issuer's address.
      oidc.proxy = true;
      provider = createServer(oidc.callback());
      backend = await listen(provider);
    },
    async close() {
      await new Promise<void>((resolve) => front.close(() => resolve()));
      if (provider) await new Promise<void>((resolve) => provider!.close(() => resolve()));
    },
  };
}

/** A browser's way through redirects and the provider's sign-in and consent forms, keeping cookies as a browser would (by name; every server here is 127.0.0.1). */
export async function signInThrough(
  start: string,
  login: string,
): Promise<{ final: string; cookies: Map<string, string> }> {
  const cookies = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const value = pair!.slice(at + 1);
      if (value === '' || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line))
        cookies.delete(pair!.slice(0, at));
      else cookies.set(pair!.slice(0, at), value);
    }
    return res;
  };
  let url = start;
  for (let hop = 0; hop < 20; hop++) {
    const res = await send(url);
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action || res.status !== 200 || !url.includes('/interaction/')) return { final: url, cookies };
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1] ?? 'consent';
    const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'anything' } : { prompt });
    const posted = await send(new URL(action.replace(/&amp;/g, '&'), url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    url = new URL(posted.headers.get('location')!, url).href;
  }
  throw new Error('too many hops');
}
