import { describe, expect, it } from 'vitest';
import { serviceUrlAllowed, serviceUrlRule } from './service-urls.ts';
import { DEFAULT_SERVICE_URLS } from './vendor-addresses.ts';

const defaults = DEFAULT_SERVICE_URLS.map(serviceUrlRule);

describe('the origins the bot sends its token to', () => {
  it.each([
    'https://smba.trafficmanager.net/amer/',
    'https://smba.trafficmanager.net/teams/',
    'https://webchat.botframework.com/',
    'https://europe.directline.botframework.com/',
    'https://smba.infra.gcc.teams.microsoft.com/',
  ])("when a conversation's serviceUrl is %s, then the bot may answer there", (serviceUrl) => {
    expect(serviceUrlAllowed(serviceUrl, defaults)).toBe(true);
  });

  it.each([
    ['a look-alike domain', 'https://evilbotframework.com/'],
    ["the wildcard's own domain", 'https://botframework.com/'],
    ["a suffix under an attacker's domain", 'https://smba.trafficmanager.net.attacker.example/'],
    ['plain http', 'http://smba.trafficmanager.net/amer/'],
    ['another port', 'https://smba.trafficmanager.net:8443/amer/'],
    ['credentials before the host', 'https://smba.trafficmanager.net@attacker.example/'],
    ['a user name on an allowed host', 'https://user:pass@smba.trafficmanager.net/'],
    ['a private address', 'http://169.254.169.254/latest/meta-data/'],
    ['no URL at all', 'smba.trafficmanager.net'],
  ])("when a serviceUrl is %s (%s), then the bot's token is not sent there", (_what, serviceUrl) => {
    expect(serviceUrlAllowed(serviceUrl, defaults)).toBe(false);
  });
});
