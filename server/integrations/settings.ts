import { z } from 'zod';
import { serviceSchema } from './auth/service-config.ts';
import { datasetConfigSchema } from './datasets/dataset-config.ts';

/** The integration part of a bot definition: services the steps call and background datasets. */
export const integrationSettingsSchema = z
  .object({
    services: z
      .record(z.string().regex(/^[A-Za-z][\w-]{0,63}$/), serviceSchema)
      .default({})
      .describe('The services integration steps call, by name: each a base URL and how calls sign in.'),
    datasets: z
      .array(datasetConfigSchema)
      .default([])
      .describe('Lists the bot reads locally, filled from a service in the background or pushed to it.'),
  })
  .strict();

export type IntegrationSettings = z.infer<typeof integrationSettingsSchema>;
export type IntegrationSettingsInput = z.input<typeof integrationSettingsSchema>;
