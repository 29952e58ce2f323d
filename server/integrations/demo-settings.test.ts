import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../ports/clock.ts';
import type { Store } from '../ports/store.ts';
import { projectRoot } from '../paths.ts';
import { IntegrationRuntime } from './run-integration.ts';
import { captureLogger } from './test/upstream.ts';

describe('demo integration settings', () => {
  it('when the proposed demo settings load, then every example step passes load-time validation', async () => {
    const file = JSON.parse(await readFile(path.join(projectRoot(), 'demo', 'integrations.json'), 'utf8')) as {
      services: unknown;
      datasets: unknown;
      exampleSteps: Record<string, object>;
    };
    // Nothing is read or called: only the definitions are checked.
    const runtime = IntegrationRuntime.create(
      { services: file.services, datasets: file.datasets },
      { store: {} as Store, clock: systemClock, logger: captureLogger(), env: {}, allowedHosts: ['127.0.0.1'] },
    );
    for (const [name, step] of Object.entries(file.exampleSteps)) expect(() => runtime.prepare(step, `exampleSteps.${name}`)).not.toThrow();
    expect(runtime.datasets.names()).toEqual(['places']);
    await runtime.close();
  });
});
