import { describe, expect, it } from 'vitest';
import { HIDDEN, maskRequest, maskResponseBody, namedSecrets } from './mask.ts';

const TOKEN = 'sk_live_preview_token_4c1d9e';
const PASSWORD = 'p@ss word/9e8d7c';
const definition = {
  integrations: {
    services: {
      crm: { auth: { type: 'bearer', tokenEnv: 'CRM_TOKEN' } },
      legacy: { auth: { type: 'basic', username: 'bot', passwordEnv: 'LEGACY_PASSWORD' } },
    },
  },
};
const secrets = namedSecrets(definition, {
  CRM_TOKEN: TOKEN,
  LEGACY_PASSWORD: PASSWORD,
  UNRELATED: 'not-named-by-the-bot',
});

describe('requests shown in a preview', () => {
  it('when the definition names secrets, then exactly those with a value are masked, longest first', () => {
    expect(secrets.map((s) => s.name)).toEqual(['CRM_TOKEN', 'LEGACY_PASSWORD']);
  });

  it('when a secret goes out plainly, base64-encoded or URL-encoded, then every form is shown as its name', () => {
    const shown = maskRequest(
      {
        method: 'post',
        url: `https://api.example.com/x?key=${encodeURIComponent(PASSWORD)}&page=2`,
        headers: {
          authorization: `Basic ${Buffer.from(`bot:${PASSWORD}`).toString('base64')}`,
          'x-note': `token ${TOKEN}`,
        },
        body: `plain ${TOKEN} and ${Buffer.from(TOKEN).toString('base64')}`,
      },
      secrets,
    );
    const text = JSON.stringify(shown);
    for (const form of [TOKEN, PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(TOKEN).toString('base64')])
      expect(text).not.toContain(form);
    expect(shown.method).toBe('POST');
    expect(shown.headers).toContainEqual(['authorization', `Basic ${HIDDEN}`]);
    expect(shown.headers).toContainEqual(['x-note', 'token ‹CRM_TOKEN›']);
    expect(shown.body).toBe('plain ‹CRM_TOKEN› and ‹CRM_TOKEN›');
    expect(shown.url).toContain('page=2');
  });

  it("when a credential is not one of the bot's secrets (a user's token, a password field), then it is hidden by where it stands", () => {
    const shown = maskRequest(
      {
        method: 'POST',
        url: 'https://user:hunter22@api.example.com/login?access_token=abc123&q=shoes',
        headers: { Authorization: 'Bearer user-token-77', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.com', password: 'hunter22', nested: { refresh_token: 'r-1' } }),
      },
      secrets,
    );
    expect(shown.headers).toContainEqual(['Authorization', `Bearer ${HIDDEN}`]);
    expect(shown.url).toBe('https://user:hidden@api.example.com/login?access_token=hidden&q=shoes');
    expect(JSON.parse(shown.body ?? '')).toEqual({
      email: 'ada@example.com',
      password: HIDDEN,
      nested: { refresh_token: HIDDEN },
    });
  });

  it("when a form body or an API's answer carries credentials, then they are masked there too", () => {
    const form = maskRequest(
      {
        method: 'POST',
        url: 'https://id.example.com/token',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_secret=${encodeURIComponent(PASSWORD)}`,
      },
      secrets,
    );
    expect(form.body).toBe(`grant_type=client_credentials&client_secret=${encodeURIComponent(HIDDEN)}`);
    const answer = maskResponseBody(
      Buffer.from(JSON.stringify({ access_token: 'fresh-1', echoed: TOKEN })),
      'application/json',
      secrets,
    );
    expect(JSON.parse(answer)).toEqual({ access_token: HIDDEN, echoed: '‹CRM_TOKEN›' });
  });
});
