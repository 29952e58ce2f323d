import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config.ts';

describe('config', () => {
  it('when nothing is set, then the documented defaults apply', () => {
    const config = readConfig({});
    expect(config).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', DATA_DIR: './data' });
    expect(config.MONGODB_URL).toBeUndefined();
    expect(config.BOT_DEFINITION).toMatch(/demo[/\\]bot\.json$/);
  });

  it.each([
    ['PORT', 'abc', /^PORT: must be a whole number from 0 to 65535 \(got "abc"\)$/],
    ['PORT', '70000', /^PORT: /],
    ['MONGODB_URL', 'http://db', /^MONGODB_URL: must be a URL starting with mongodb:\/\/ or mongodb\+srv:\/\/$/],
    ['ALLOWED_ORIGINS', 'https://ok.example, not a url', /^ALLOWED_ORIGINS: /],
    ['BOT_FUNCTION_KEY', 'short', /^BOT_FUNCTION_KEY: must be at least 16 characters long$/],
    ['LOG_LEVEL', 'loud', /^LOG_LEVEL: /],
  ])('when %s is %j, then one line names the variable', (variable, value, message) => {
    expect(() => readConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => readConfig({ [variable]: value })).toThrow(message);
  });

  it('when a secret is bad, then its value is not repeated in the error', () => {
    expect(() => readConfig({ BOT_FUNCTION_KEY: 'hunter2' })).toThrow(/^(?!.*hunter2)/);
  });

  it('when values are set, then they are parsed', () => {
    const config = readConfig({ PORT: '0', ALLOWED_ORIGINS: 'https://a.example,https://b.example', MONGODB_URL: 'mongodb://127.0.0.1:1/x' });
    expect(config.PORT).toBe(0);
    expect(config.ALLOWED_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
  });
});
