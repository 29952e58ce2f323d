import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config.ts';

describe('config', () => {
  it('when nothing is set, then the documented defaults apply', () => {
    const config = readConfig({});
    expect(config).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', DATA_DIR: './data', JOB_LEASE_SECONDS: 30 });
    expect(config.MONGODB_URL).toBeUndefined();
    expect(config.BOT_DEFINITION).toMatch(/demo[/\\]bot\.json$/);
    expect(config.SESSION_TTL).toBe(30 * 86_400_000);
    expect(config.INSIGHTS_WINDOW).toBe(30 * 60_000);
  });

  it('when SESSION_SECRET_PREVIOUS repeats SESSION_SECRET, then one line says it must differ, without the secret', () => {
    const secret = 'the-same-session-secret-0123456789abcdef';
    expect(() => readConfig({ SESSION_SECRET: secret, SESSION_SECRET_PREVIOUS: secret })).toThrow(
      /^SESSION_SECRET_PREVIOUS: must differ from SESSION_SECRET[^"]*$/,
    );
  });

  it.each([
    ['PORT', 'abc', /^PORT: must be a whole number from 0 to 65535 \(got "abc"\)$/],
    ['PORT', '70000', /^PORT: /],
    ['MONGODB_URL', 'http://db', /^MONGODB_URL: must be a URL starting with mongodb:\/\/ or mongodb\+srv:\/\/$/],
    [
      'ALLOWED_ORIGINS',
      'https://ok.example, not a url',
      /^ALLOWED_ORIGINS: must be a comma-separated list of origins such as https:\/\/shop.example.com .*"not a url" is not one/,
    ],
    ['ALLOWED_ORIGINS', 'https://shop.example.com/checkout', /^ALLOWED_ORIGINS: .*no path/],
    ['ALLOWED_ORIGINS', '*', /^ALLOWED_ORIGINS: leave ALLOWED_ORIGINS unset to allow any origin/],
    ['BOT_FUNCTION_KEY', 'short', /^BOT_FUNCTION_KEY: must be at least 16 characters long$/],
    ['LOG_LEVEL', 'loud', /^LOG_LEVEL: /],
    [
      'SESSION_TTL',
      'forever',
      /^SESSION_TTL: must be a duration from 1m to 3650d, such as 30d, 12h or 90m \(got "forever"\)$/,
    ],
    ['SESSION_TTL', '30s', /^SESSION_TTL: /],
    ['SESSION_SECRET_PREVIOUS', 'short', /^SESSION_SECRET_PREVIOUS: must be at least 32 characters long$/],
    ['JOB_LEASE_SECONDS', '0', /^JOB_LEASE_SECONDS: must be a whole number of seconds from 1 to 9999 \(got "0"\)$/],
    ['JOB_LEASE_SECONDS', '2.5', /^JOB_LEASE_SECONDS: /],
    [
      'TRUST_PROXY',
      'nginx',
      /^TRUST_PROXY: must be true, false, a number of proxy hops, or a comma-separated list .*"nginx" is none of these \(got "nginx"\)$/,
    ],
    [
      'REST_CHANNEL_ANSWER_WAIT',
      '2m',
      /^REST_CHANNEL_ANSWER_WAIT: must be a duration from 100ms to 60s, such as 10s or 500ms \(got "2m"\)$/,
    ],
    ['DEMO_PAGE', 'yes', /^DEMO_PAGE: must be 1 \(serve the demo page at \/\) or 0/],
    [
      'RETENTION_TRANSCRIPT_DAYS',
      '0',
      /^RETENTION_TRANSCRIPT_DAYS: must be a whole number of days from 1 to 99999, or unset to keep records until they are erased \(got "0"\)$/,
    ],
    ['RETENTION_NLP_LOG_DAYS', '1.5', /^RETENTION_NLP_LOG_DAYS: /],
    ['METRICS_TOKEN', 'short', /^METRICS_TOKEN: must be at least 16 characters long$/],
    [
      'REDIS_URL',
      'redis://127.0.0.1:6379',
      /^REDIS_URL: turns on cluster mode, which needs MONGODB_URL \(the embedded SQLite store is single-node\); set MONGODB_URL or unset REDIS_URL$/,
    ],
    ['INSIGHTS_WINDOW', '8d', /^INSIGHTS_WINDOW: must be a duration from 1s to 7d, such as 30m or 2h \(got "8d"\)$/],
    [
      'INSIGHTS_MISSES_ROWS',
      '0',
      /^INSIGHTS_MISSES_ROWS: must be a whole number of log rows from 1 to 9999999 \(got "0"\)$/,
    ],
    [
      'INSIGHTS_MISSES_GROUPED',
      '20000',
      /^INSIGHTS_MISSES_GROUPED: must be a whole number of inputs from 1 to 9999 \(got "20000"\)$/,
    ],
    ['SHUTDOWN_GRACE', '1h', /^SHUTDOWN_GRACE: must be a duration from 0s to 10m, such as 20s or 500ms \(got "1h"\)$/],
    [
      'TURN_DEADLINE',
      '50ms',
      /^TURN_DEADLINE: must be a duration from 100ms to 120s, such as 15s or 500ms \(got "50ms"\)$/,
    ],
  ])('when %s is %j, then one line names the variable', (variable, value, message) => {
    expect(() => readConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => readConfig({ [variable]: value })).toThrow(message);
  });

  it('when REDIS_URL and MONGODB_URL are both set, then cluster mode is configured', () => {
    const cluster = { REDIS_URL: 'redis://127.0.0.1:6379', MONGODB_URL: 'mongodb://127.0.0.1:27017/bot' };
    expect(() => readConfig(cluster)).toThrow(
      /^SESSION_SECRET: must be set in cluster mode \(REDIS_URL\), the same on every node/,
    );
    expect(() => readConfig({ ...cluster, SESSION_SECRET: 's'.repeat(32) })).toThrow(
      /^BOT_FUNCTION_KEY: must be set in cluster mode/,
    );
    expect(() => readConfig({ ...cluster, SESSION_SECRET: 's'.repeat(32), BOT_FUNCTION_KEY: 'k'.repeat(16) })).toThrow(
      /^SECRETS_KEY: must be set in cluster mode/,
    );
    const config = readConfig({
      ...cluster,
      SESSION_SECRET: 's'.repeat(32),
      BOT_FUNCTION_KEY: 'k'.repeat(16),
      SECRETS_KEY: 'x'.repeat(32),
      SHUTDOWN_GRACE: '5s',
    });
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.SHUTDOWN_GRACE).toBe(5000);
  });

  it('when BOT_IDENTITY_LINK_PHONE is on without BOT_IDENTITY_SECRET, then start-up stops naming the secret it needs', () => {
    expect(() => readConfig({ BOT_IDENTITY_LINK_PHONE: 'true' })).toThrow(
      /BOT_IDENTITY_LINK_PHONE: needs BOT_IDENTITY_SECRET/,
    );
    const secret = 'identity-secret-0123456789';
    expect(readConfig({ BOT_IDENTITY_LINK_PHONE: 'true', BOT_IDENTITY_SECRET: secret }).BOT_IDENTITY_LINK_PHONE).toBe(
      true,
    );
    expect(readConfig({}).BOT_IDENTITY_LINK_PHONE).toBeUndefined();
  });

  it('when a secret is bad, then its value is not repeated in the error', () => {
    expect(() => readConfig({ BOT_FUNCTION_KEY: 'hunter2' })).toThrow(/^(?!.*hunter2)/);
  });

  it('when values are set, then they are parsed', () => {
    const config = readConfig({
      PORT: '0',
      ALLOWED_ORIGINS: 'https://a.example,https://b.example',
      MONGODB_URL: 'mongodb://127.0.0.1:1/x',
      JOB_LEASE_SECONDS: '2',
    });
    expect(config.PORT).toBe(0);
    expect(readConfig({ SESSION_TTL: '12h' }).SESSION_TTL).toBe(12 * 3_600_000);
    expect(readConfig({ INSIGHTS_WINDOW: '2h' }).INSIGHTS_WINDOW).toBe(2 * 3_600_000);
    expect(readConfig({}).TURN_DEADLINE).toBe(15_000);
    expect(readConfig({ TURN_DEADLINE: '2s' }).TURN_DEADLINE).toBe(2_000);
    expect(config.JOB_LEASE_SECONDS).toBe(2);
    expect(config.ALLOWED_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
    expect(
      readConfig({ ALLOWED_ORIGINS: 'HTTPS://Shop.Example.com:443/, http://shop.test:8080' }).ALLOWED_ORIGINS,
    ).toEqual(['https://shop.example.com', 'http://shop.test:8080']);
  });

  const key = 'short-secret';
  it.each([
    ['not JSON', '{name:', /^REST_CHANNELS: must be a JSON list such as/],
    ['not a list', '{"name":"sms"}', /^REST_CHANNELS: must be a JSON list of channels/],
    [
      'a short key',
      JSON.stringify([{ name: 'sms', key }]),
      /^REST_CHANNELS: channel 1: key must be at least 16 characters long$/,
    ],
    [
      'a bad name',
      JSON.stringify([{ name: 'SMS!', key: 'k'.repeat(16) }]),
      /^REST_CHANNELS: channel 1: name must be 1 to 64 lower-case letters/,
    ],
    [
      'the web chat name',
      JSON.stringify([{ name: 'webchat', key: 'k'.repeat(16) }]),
      /^REST_CHANNELS: channel 1: the name "webchat" belongs to the web chat/,
    ],
    [
      'a name twice',
      JSON.stringify([
        { name: 'sms', key: 'k'.repeat(16) },
        { name: 'sms', key: 'j'.repeat(16) },
      ]),
      /^REST_CHANNELS: channel 2: the name "sms" is used twice$/,
    ],
    [
      'a bad callback',
      JSON.stringify([{ name: 'sms', key: 'k'.repeat(16), callbackUrl: 'ftp://x' }]),
      /^REST_CHANNELS: channel 1: callbackUrl must be an http:\/\/ or https:\/\/ URL$/,
    ],
    [
      'an unknown field',
      JSON.stringify([{ name: 'sms', key: 'k'.repeat(16), secret: 'x' }]),
      /^REST_CHANNELS: channel 1: unknown field "secret"/,
    ],
    [
      'a short previous key',
      JSON.stringify([{ name: 'sms', key: 'k'.repeat(16), keyPrevious: key }]),
      /^REST_CHANNELS: channel 1: keyPrevious must be at least 16 characters long$/,
    ],
    [
      'a previous key equal to the key',
      JSON.stringify([{ name: 'sms', key: 'k'.repeat(16), keyPrevious: 'k'.repeat(16) }]),
      /^REST_CHANNELS: channel 1: keyPrevious is the same as key/,
    ],
  ])('when REST_CHANNELS has %s, then one line says what to fix and never repeats a key', (_what, value, message) => {
    expect(() => readConfig({ REST_CHANNELS: value })).toThrow(message);
    expect(() => readConfig({ REST_CHANNELS: value })).toThrow(/^(?!.*short-secret)/);
  });

  it('when REST_CHANNELS lists channels, then each has its name, key and optional callback URL', () => {
    const channels = [
      { name: 'sms', key: 'k'.repeat(16), callbackUrl: 'https://sms.example.com/bot' },
      { name: 'poll', key: 'j'.repeat(16) },
    ];
    expect(readConfig({ REST_CHANNELS: JSON.stringify(channels) }).REST_CHANNELS).toEqual(channels);
    expect(readConfig({}).REST_CHANNELS).toEqual([]);
  });

  it.each([
    [
      'an app id without its password',
      { BOTFRAMEWORK_APP_ID: '8d3c2a4e-5b6f-4a1b-9c2d-3e4f5a6b7c8d' },
      /^BOTFRAMEWORK_APP_PASSWORD: must be set with the other Bot Framework setting/,
    ],
    [
      'a password without its app id',
      { BOTFRAMEWORK_APP_PASSWORD: 'a-client-secret-value' },
      /^BOTFRAMEWORK_APP_ID: must be set with the other Bot Framework setting/,
    ],
    [
      'an app id that is not a GUID',
      { BOTFRAMEWORK_APP_ID: 'my-bot', BOTFRAMEWORK_APP_PASSWORD: 'a-client-secret-value' },
      /^BOTFRAMEWORK_APP_ID: must be the Azure Bot's Microsoft App ID/,
    ],
    [
      'a service URL with a path',
      { BOTFRAMEWORK_SERVICE_URLS: 'https://smba.trafficmanager.net/amer/' },
      /^BOTFRAMEWORK_SERVICE_URLS: "https:\/\/smba.trafficmanager.net\/amer\/" must be an origin only/,
    ],
    [
      'a service URL that is no URL',
      { BOTFRAMEWORK_SERVICE_URLS: 'smba.trafficmanager.net' },
      /^BOTFRAMEWORK_SERVICE_URLS: "smba.trafficmanager.net" is not an origin/,
    ],
  ])(
    'when the Teams settings have %s, then one line says what to fix and never repeats the password',
    (_what, env, message) => {
      expect(() => readConfig(env)).toThrow(message);
      expect(() => readConfig(env)).toThrow(/^(?!.*a-client-secret-value)/);
    },
  );

  it("when BOTFRAMEWORK_SERVICE_URLS lists origins, then each is parsed (`*.` for any subdomain); unset, the Bot Framework's own apply", () => {
    const config = readConfig({ BOTFRAMEWORK_SERVICE_URLS: 'https://*.botframework.com, http://127.0.0.1:3978' });
    expect(config.BOTFRAMEWORK_SERVICE_URLS).toEqual([
      { protocol: 'https:', host: 'botframework.com', anySubdomain: true, port: '' },
      { protocol: 'http:', host: '127.0.0.1', anySubdomain: false, port: '3978' },
    ]);
    const defaults = readConfig({});
    expect(defaults.BOTFRAMEWORK_OPENID_URL).toBe('https://login.botframework.com/v1/.well-known/openidconfiguration');
    expect(defaults.BOTFRAMEWORK_SERVICE_URLS.map((rule) => rule.host)).toContain('smba.trafficmanager.net');
  });

  it('when the Slack token is set without the signing secret, or a setting is not what Slack issues, then one line names the missing or wrong one, without its value', () => {
    const token = 'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp';
    expect(() => readConfig({ SLACK_BOT_TOKEN: token })).toThrow(
      /^SLACK_SIGNING_SECRET: must be set with the other Slack setting/,
    );
    expect(() => readConfig({ SLACK_SIGNING_SECRET: '8f742231b10e8888abcd99yyyzzz85a5' })).toThrow(
      /^SLACK_BOT_TOKEN: must be set/,
    );
    const userToken = () =>
      readConfig({
        SLACK_BOT_TOKEN: 'xoxp-a-user-token-0123456789',
        SLACK_SIGNING_SECRET: '8f742231b10e8888abcd99yyyzzz85a5',
      });
    expect(userToken).toThrow(/^SLACK_BOT_TOKEN: must be the app's Bot User OAuth Token/);
    expect(userToken).not.toThrow(/xoxp-a-user-token/);
    expect(
      readConfig({ SLACK_BOT_TOKEN: token, SLACK_SIGNING_SECRET: '8f742231b10e8888abcd99yyyzzz85a5' }),
    ).toMatchObject({ SLACK_BOT_TOKEN: token, SLACK_API_URL: 'https://slack.com/api' });
  });
});
