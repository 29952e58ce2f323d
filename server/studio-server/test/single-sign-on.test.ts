import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/start-test-server.ts';
import { signInThrough, startIdentityProvider, type TestIdentityProvider } from './oidc-provider.ts';
import { StudioClient } from './studio-client.ts';

const CLIENT_ID = 'chatbot-studio';
const CLIENT_SECRET = 'studio-client-secret-0123456789';

/** Single sign-on against a real OpenID provider (oidc-provider) started here, through real HTTP. */
describe('single sign-on to the studio through OpenID Connect', () => {
  let idp: TestIdentityProvider;
  let server: TestServer;

  beforeAll(async () => {
    idp = await startIdentityProvider(
      {
        'ada-1': { email: 'ada@example.com', name: 'Ada Author', groups: ['staff', 'bot-authors'] },
        'ana-2': { email: 'ana@example.com', name: 'Ana Analyst', groups: ['analytics'] },
        'max-3': { email: 'max@example.com', name: 'Max Nobody', groups: ['sales'] },
      },
      CLIENT_ID,
      CLIENT_SECRET,
    );
    server = await startTestServer({
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_LABEL: 'Example SSO',
      OIDC_ROLE_CLAIM: 'groups',
      OIDC_ROLE_MAP: 'studio-admins=owner,bot-authors=editor,analytics=analyst,staff=viewer',
    });
    await idp.start(`${server.url}/studio/api/oidc/callback`);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await idp?.close();
  });

  const signIn = async (login: string) => {
    const { final, cookies } = await signInThrough(`${server.url}/studio/api/oidc/login`, login);
    const client = new StudioClient(server.url);
    const session = cookies.get('studio_session');
    if (session) client.cookie = `studio_session=${session}`;
    return { final, client };
  };

  it('when the sign-in page asks how to sign in, then it offers the provider by its label', async () => {
    const options = await new StudioClient(server.url).get('/studio/api/sign-in-options');
    expect(options.body).toEqual({ password: true, singleSignOn: { label: 'Example SSO' }, signedIn: false });
  });

  it('when a person signs in at the provider, then the studio opens with the role their group maps to, the highest of several', async () => {
    const { final, client } = await signIn('ada-1');
    expect(new URL(final).pathname).toBe('/studio/');
    const session = await client.get('/studio/api/session');
    expect(session.status).toBe(200);
    expect(session.body.account).toMatchObject({ email: 'ada@example.com', name: 'Ada Author', role: 'editor' });
    const analyst = await signIn('ana-2');
    expect((await analyst.client.get('/studio/api/session')).body.account.role).toBe('analyst');
  });

  it('when the same person signs in again, then it is the same account', async () => {
    const first = (await (await signIn('ada-1')).client.get('/studio/api/session')).body.account.id;
    const again = (await (await signIn('ada-1')).client.get('/studio/api/session')).body.account.id;
    expect(again).toBe(first);
  });

  it("when a person's groups map to no studio role, then no account is made and the sign-in page says so", async () => {
    const { final, client } = await signIn('max-3');
    expect(final).toContain('/studio/?sso_error=forbidden');
    expect(client.cookie).toBeUndefined();
  });

  it('when the ID token is forged (signed with another key, claiming an owner group), then it is refused and nobody is signed in', async () => {
    idp.tampering = 'forge';
    try {
      const { final, client } = await signIn('ada-1');
      expect(final).toContain('/studio/?sso_error=failed');
      expect(client.cookie).toBeUndefined();
    } finally {
      idp.tampering = 'none';
    }
  });

  it('when the ID token is genuine but expired, then it is refused and nobody is signed in', async () => {
    idp.tampering = 'expire';
    try {
      const { final, client } = await signIn('ana-2');
      expect(final).toContain('/studio/?sso_error=failed');
      expect(client.cookie).toBeUndefined();
    } finally {
      idp.tampering = 'none';
    }
    const refusals = server.logs.filter((line) => line.event === 'sso_refused');
    expect(refusals.length).toBe(2);
  });

  it('when the callback is called without the sign-in transaction (another browser, a replay), then it is refused', async () => {
    const res = await fetch(`${server.url}/studio/api/oidc/callback?code=stolen&state=guess`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/studio/?sso_error=failed');
    expect(res.headers.getSetCookie().some((line) => line.startsWith('studio_session='))).toBe(false);
  });
});
