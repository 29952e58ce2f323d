import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compiledEntry } from '../../test/compiled-server.ts';

export interface Ended {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs an entry of this repository (`server/cli/main.ts`: its compiled module, as `npx` runs it) or a
 * JavaScript file as its own Node process, and collects how it ended.
 */
export async function runEntry(
  entry: string,
  args: readonly string[],
  env: Record<string, string> = {},
  stopWhen?: (stdout: string) => boolean,
): Promise<Ended> {
  const compiled = entry.endsWith('.js') ? entry : await compiledEntry(entry);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [compiled, ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stopWhen?.(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Writes a definition into a fresh folder; answers its path. */
export async function writeBot(text: string, name = 'bot.json'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bot-check-'));
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}
