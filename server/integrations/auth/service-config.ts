import { z } from 'zod';
import { authConfigSchema } from './auth-config.ts';

/** A service the bot's steps and datasets call: where it lives and how calls sign in. */
export const serviceSchema = z
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

export type ServiceConfig = z.infer<typeof serviceSchema>;
