import { describe, expect, it } from 'vitest';
import { BUILT_IN_STEP_TYPES, StepTypeRegistry } from './registry.ts';
import type { StepType } from '../step-contract/step-type.ts';

describe('the step type registry', () => {
  it("when every built-in step type is used, then each one's parameter and output schemas compile", () => {
    const registry = new StepTypeRegistry();
    for (const type of BUILT_IN_STEP_TYPES) {
      const compiled = registry.get(type.name)!;
      expect(typeof compiled.params, type.name).toBe('function');
      expect(typeof compiled.output, type.name).toBe('function');
    }
  });

  it('when a step type is registered, then its schemas are compiled only once it is used (a bot using none compiles none at start-up), and once', () => {
    const broken = {
      ...BUILT_IN_STEP_TYPES[0]!,
      name: 'broken',
      paramsSchema: { type: 'no-such-type' },
    } as unknown as StepType;
    const registry = new StepTypeRegistry([broken]);
    expect(registry.names()).toStrictEqual(['broken']);
    expect(() => registry.get('broken')!.params).toThrow(/no-such-type|type/);
    const fine = new StepTypeRegistry().get(BUILT_IN_STEP_TYPES[0]!.name)!;
    expect(fine.params).toBe(fine.params);
  });

  it('when a params schema fills defaults and coerces, then the lazily compiled validator does so', () => {
    const type = {
      ...BUILT_IN_STEP_TYPES[0]!,
      name: 'coerce',
      paramsSchema: { type: 'object', properties: { n: { type: 'number' }, d: { type: 'string', default: 'x' } } },
    } as unknown as StepType;
    const validate = new StepTypeRegistry([type]).get('coerce')!.params;
    const params: Record<string, unknown> = { n: '5' };
    expect(validate(params)).toBe(true);
    expect(params).toStrictEqual({ n: 5, d: 'x' });
  });
});
