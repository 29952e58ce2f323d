import { z } from 'zod';
import { authConfigSchema } from './auth/auth-config.ts';
import { datasetConfigSchema } from './datasets/dataset-config.ts';

const serviceSchema = z
  .object({
    /** Paths of service-level and preset steps are resolved under it; a trailing "/" is implied. */
    baseUrl: z.url({ protocol: /^https?$/ }),
    /** An environment variable that, when set, replaces baseUrl (the same definition against a test or demo system). */
    baseUrlEnv: z.string().regex(/^[A-Z][A-Z0-9_]{0,127}$/, 'must be an environment variable name such as "CRM_URL"').optional(),
    auth: authConfigSchema.optional(),
  })
  .strict();

/** The integration part of a bot definition: services the steps call and background datasets. */
export const integrationSettingsSchema = z
  .object({
    services: z.record(z.string().regex(/^[A-Za-z][\w-]{0,63}$/), serviceSchema).default({}),
    datasets: z.array(datasetConfigSchema).default([]),
  })
  .strict();

export type IntegrationSettings = z.infer<typeof integrationSettingsSchema>;
export type IntegrationSettingsInput = z.input<typeof integrationSettingsSchema>;
export type ServiceConfig = z.infer<typeof serviceSchema>;
