/** Test secrets of the presets: each looks like the vendor's own, so a leak would be recognisable. */
export const SECRETS = {
  SLACK_BOT_TOKEN: 'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
  HUBSPOT_TOKEN: 'pat-na1-2d1f8e6a-5c7b-4e3d-9a10-bb21c9d4e7f3',
  ZENDESK_TOKEN: '6wiIBWbGkBMo1mRDMuVwkw1EPsNkeUj95PIz2akv',
  OPENAI_API_KEY: 'sk-proj-Stand1nKeyAbCdEfGh0123456789wXyZ',
  WEBHOOK_SIGNING_SECRET: 'whsec_7d1c0a9e4b2f8a63c5e1d07b9f2a4c68',
  ZAPIER_HOOK_PATH: '/hooks/catch/1234567/abcde1f/',
  SLACK_WEBHOOK_PATH: '/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
} as const;

/** Every form a secret may take in a log or an export: as is, base64, URL-encoded, and for Zendesk the Basic credential. */
export function forms(values: readonly string[]): string[] {
  return values.flatMap((value) => [value, Buffer.from(value).toString('base64'), encodeURIComponent(value)]);
}
