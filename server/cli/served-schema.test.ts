import { describe, expect, it } from 'vitest';
import { startTestServer } from '../test/start-test-server.ts';

describe('the editor schema, served', () => {
  it("when an editor fetches the URL a definition names in $schema, then it gets the schema with that URL as its $id and this bot's own step types", async () => {
    const server = await startTestServer();
    try {
      const response = await fetch(`${server.url}/bot-definition.schema.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/schema\+json/);
      const schema = (await response.json()) as { $id: string; $schema: string };
      expect(schema.$id).toBe(`${server.url}/bot-definition.schema.json`);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      // The demo bot's own step type (demo/steps/loyalty-points.mjs) is offered with its parameters.
      expect(JSON.stringify(schema)).toContain('"const":"loyaltyPoints"');
    } finally {
      await server.close();
    }
  });
});
