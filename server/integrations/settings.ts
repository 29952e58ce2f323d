import { z } from 'zod';
import { authConfigSchema } from './auth/auth-config.ts';
import { datasetConfigSchema } from './datasets/dataset-config.ts';

const serviceSchema = z
  .object({
    /** Paths of service-level and preset steps are resolved under it; a trailing "/" is implied. */
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .describe(
        "The address the service's calls start with, e.g. https://api.example.com/v1: an integration step's endpoint is a path under it.",
      ),
    /** An environment variable that, when set, replaces baseUrl (the same definition against a test or demo system). */
    baseUrlEnv: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{0,127}$/, 'must be an environment variable name such as "CRM_URL"')
      .optional()
      .describe(
        'A secret or environment variable that, when set, replaces the base URL (the same bot against a test or demo system).',
      ),
    auth: authConfigSchema
      .optional()
      .describe('How calls to the service sign in. Keys and passwords are named secrets, never written here.'),
  })
  .strict();

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
export type ServiceConfig = z.infer<typeof serviceSchema>;
