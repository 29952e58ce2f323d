/**
 * Starts the Mongo-compatible server of the store contract suite's Mongo leg
 * once per run and hands its URL to the tests. Under CI a missing server
 * fails the run; locally the leg is skipped with a loud line saying why.
 */
import type { TestProject } from 'vitest/node';
import { startMongoTestServer } from './mongo-test-server.ts';
import { useRunTmpdir } from './test-tmpdir.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the server for the Mongo leg, or '' when it is skipped. */
    mongoUrl: string;
    /** Why the Mongo leg is skipped, or '' when it runs. */
    mongoSkipReason: string;
  }
}

export default async function setup({ provide }: Pick<TestProject, 'provide'>): Promise<() => Promise<void>> {
  const removeTmpdir = useRunTmpdir('chatbot-vitest-');
  const server = await startMongoTestServer();
  if (server.url === null) {
    if (process.env.CI === 'true') {
      removeTmpdir();
      throw new Error(`[mongo leg] no Mongo-compatible server under CI: ${server.reason}`);
    }
    console.warn(`[mongo leg] SKIPPED: ${server.reason}`);
    provide('mongoUrl', '');
    provide('mongoSkipReason', server.reason);
    return async () => removeTmpdir();
  }
  console.log(`[mongo leg] using ${server.description}`);
  provide('mongoUrl', server.url);
  provide('mongoSkipReason', '');
  return async () => {
    await server.stop();
    removeTmpdir();
  };
}
