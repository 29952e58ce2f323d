import { z } from 'zod';
import { definitionJsonSchema } from '../definition/json-schema.ts';
import { integrationSettingsSchema } from '../integrations/settings.ts';
import { BUILT_IN_STEP_TYPES } from '../integrations/step-types/registry.ts';
import type { StepType } from '../integrations/step-contract/step-type.ts';

/**
 * The editor schema with the integration step types' parameters: the built-in ones (the committed
 * docs/bot-definition.schema.json), plus a bot's own when a server serves it.
 */
export function editorSchema(options: { ownStepTypes?: readonly StepType[]; id?: string } = {}): string {
  const stepTypes = [...BUILT_IN_STEP_TYPES, ...(options.ownStepTypes ?? [])].map((type) => ({
    name: type.name,
    description: type.description,
    params: type.paramsSchema,
  }));
  const parts = (
    z.toJSONSchema(integrationSettingsSchema, { io: 'input' }) as unknown as {
      properties: { services: object; datasets: object };
    }
  ).properties;
  const integrations = { services: parts.services, datasets: parts.datasets };
  return definitionJsonSchema({ stepTypes, integrations, ...(options.id === undefined ? {} : { id: options.id }) });
}
