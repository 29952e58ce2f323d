import { describe, expect, it } from 'vitest';
import { addEntry, freeName, referencesTo, removeEntry, renameEntry } from './records.ts';
import type { DefinitionDoc } from './types.ts';

const SERVICES = ['integrations', 'services'] as const;

const bot = (): DefinitionDoc => ({
  settings: { id: 'b', startDialog: 'main' },
  integrations: {
    services: {
      crm: { baseUrl: 'https://crm.example.com' },
      shop: { baseUrl: 'https://shop.example.com', auth: { type: 'bearer', tokenEnv: 'SHOP_TOKEN' } },
    },
    datasets: [{ name: 'stores', source: { service: 'shop', url: '/stores' } }],
  },
  dialogs: [
    {
      id: 'main',
      steps: [
        { id: 'call', type: 'integration', integration: 'http', service: 'shop', params: { endpoint: '/plans' } },
        { id: 'other', type: 'integration', integration: 'http', service: 'crm', params: { endpoint: '/x' } },
        { id: 'say', type: 'message', text: 'shop' },
      ],
    },
  ],
});

describe('a map of named services', () => {
  it('when a service is renamed, then the integration steps and dataset sources naming it follow, the others and plain text stay, and its place in the map is kept', () => {
    const before = bot();
    const after = renameEntry(before, SERVICES, 'shop', 'store');
    expect(Object.keys((after.integrations as { services: object }).services)).toEqual(['crm', 'store']);
    expect(after.dialogs[0]!.steps.map((s) => s.service ?? s.text)).toEqual(['store', 'crm', 'shop']);
    expect((after.integrations as { datasets: { source: { service: string } }[] }).datasets[0]!.source.service).toBe(
      'store',
    );
    expect(referencesTo(before, SERVICES, 'shop')).toBe(2);
    // The old definition is untouched: the undo history keeps it.
    expect(before.dialogs[0]!.steps[0]!.service).toBe('shop');
  });

  it('when the new name is taken, then nothing changes', () => {
    const before = bot();
    expect(renameEntry(before, SERVICES, 'shop', 'crm')).toBe(before);
  });

  it('when services are added and removed, then names are free ones and the last removal removes the map', () => {
    const empty: DefinitionDoc = { settings: {}, dialogs: [] };
    const name = freeName([], 'service');
    const one = addEntry(empty, SERVICES, name, {});
    expect(one.integrations).toEqual({ services: { service1: {} } });
    expect(freeName(['service1'], 'service')).toBe('service2');
    expect(removeEntry(one, SERVICES, 'service1').integrations).toEqual({});
  });
});
