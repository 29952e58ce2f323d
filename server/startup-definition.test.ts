import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { MISTAKES } from './cli/test/mistakes.ts';
import { runEntry, writeBot } from './cli/test/run-process.ts';

/**
 * Start-up refuses each typical mistake as `chatbot check` does: exit code 1 and the same line,
 * under the heading naming the file, whichever store is configured (nothing is opened first).
 */
const stores = [
  ['SQLite', () => ({})],
  [
    'MongoDB',
    () => ({
      MONGODB_URL: `${inject('mongoUrl').replace(/\/$/, '')}/startup_${process.pid}_${Date.now().toString(36)}`,
    }),
  ],
] as const;

describe.each(stores)('start-up on %s', (store, storeEnv) => {
  const skip = store === 'MongoDB' && !inject('mongoUrl');
  it.skipIf(skip).each(MISTAKES.map((m) => [m.name, m] as const))(
    'when %s, then the server exits 1 printing the line check prints',
    async (_name, mistake) => {
      const file = await writeBot(mistake.text, mistake.yaml ? 'bot.yaml' : 'bot.json');
      const { code, stderr, stdout } = await runEntry(
        'server/main.ts',
        [],
        { PORT: '0', BOT_DEFINITION: file, DATA_DIR: path.dirname(file), ...storeEnv() },
        (out) => out.includes('Chatbot is running at'),
      );
      expect(stdout).not.toContain('Chatbot is running');
      expect(code).toBe(1);
      expect(stderr.trimEnd().split('\n')).toEqual([`Bot definition ${file} is invalid:`, `  - ${mistake.expected}`]);
    },
  );

  it.skipIf(skip)(
    'when the port is taken after the store opened, then the server exits 1 with the line saying so',
    async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const port = (taken.address() as { port: number }).port;
      const file = await writeBot(
        JSON.stringify({
          settings: { id: 'x', name: 'X', startDialog: 'main' },
          dialogs: [{ id: 'main', steps: [{ id: 'a', type: 'message', text: 'hi' }] }],
        }),
      );
      try {
        const { code, stderr } = await runEntry('server/main.ts', [], {
          PORT: String(port),
          BOT_DEFINITION: file,
          DATA_DIR: path.dirname(file),
          BOT_FUNCTION_KEY: 'a-test-key-of-enough-length',
          ...storeEnv(),
        });
        expect(code).toBe(1);
        expect(stderr.trimEnd()).toBe(
          `Cannot start: the port is already in use (listen EADDRINUSE: address already in use 127.0.0.1:${port}). Set PORT to a free port.`,
        );
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    },
  );
});
