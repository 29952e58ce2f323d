import { toStepType } from '../step-contract/define-step-type.ts';
import type { CodeStepType } from '../step-contract/step-type.ts';
import { chatCompletion } from './chat-completion.ts';
import { googleSheetsAppendRow, googleSheetsLookupRows } from './google-sheets.ts';
import { hubspotUpsertContact } from './hubspot-contact.ts';
import { sendWebhook } from './send-webhook.ts';
import { slackPostMessage } from './slack-message.ts';
import { zendeskCreateTicket } from './zendesk-ticket.ts';

/** The preset modules, as a bot's own step type modules are written (docs/integrations.md, "Presets"). */
export const PRESET_MODULES = [
  sendWebhook,
  googleSheetsAppendRow,
  googleSheetsLookupRows,
  slackPostMessage,
  hubspotUpsertContact,
  zendeskCreateTicket,
  chatCompletion,
];

/** The presets through the same check a bot's own module passes at start-up (their schemas compile in registry.test.ts). */
export const PRESET_STEP_TYPES: readonly CodeStepType[] = PRESET_MODULES.map((module) =>
  toStepType(module, { schemasCompiled: true }),
);
