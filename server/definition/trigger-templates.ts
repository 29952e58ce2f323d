import type { Problem } from './problem.ts';
import type { BotDefinition, Dialog } from './schema.ts';

/** Where WhatsApp is configured: Meta's Cloud API, or WhatsApp through Twilio (docs/channels.md). */
export interface WhatsAppSetup {
  readonly cloudApi: boolean;
  readonly twilio: boolean;
}

/** Reads the channels' settings from the environment start-up reads them from. */
export function whatsAppSetup(env: Readonly<Record<string, string | undefined>>): WhatsAppSetup {
  return { cloudApi: Boolean(env.WHATSAPP_PHONE_NUMBER_ID), twilio: Boolean(env.TWILIO_WHATSAPP_FROM) };
}

/**
 * The dialogs a trigger may start: those nothing in the bot starts (no intent, button, target, goto,
 * page event, integration's `dialog:` error route, nor the start or recovery dialog) — they exist
 * for the trigger endpoint — and those that read `triggerData`, the trigger's body.
 */
export function triggerDialogs(definition: BotDefinition): Dialog[] {
  const started = new Set<string>([definition.settings.startDialog]);
  if (definition.settings.recoveryDialog) started.add(definition.settings.recoveryDialog);
  const visit = (value: unknown, key: string, depth: number): void => {
    if (depth > 64) return; // the schema bounds nesting already; this keeps the walk bounded regardless
    if (typeof value === 'string') {
      if (key === 'dialog') started.add(value);
      const route = key === 'onError' ? /^dialog:(.+)$/.exec(value) : null;
      if (route) started.add(route[1]!);
      return;
    }
    if (Array.isArray(value)) for (const item of value) visit(item, key, depth + 1);
    else if (value !== null && typeof value === 'object')
      for (const [inner, item] of Object.entries(value)) visit(item, inner, depth + 1);
  };
  for (const [key, value] of Object.entries(definition)) if (key !== 'dialogs') visit(value, key, 0);
  for (const dialog of definition.dialogs) visit(dialog.steps, 'steps', 0);
  return definition.dialogs.filter(
    (dialog) => !started.has(dialog.id) || JSON.stringify(dialog.steps).includes('triggerData'),
  );
}

/**
 * With WhatsApp configured, a trigger for a user who last wrote more than 24 hours ago (or never)
 * is carried only by an approved template: warns of each trigger dialog without one (and, through
 * Twilio, without its Content SID), since that trigger would be refused with 409.
 */
export function checkTriggerTemplates(definition: BotDefinition, setup: WhatsAppSetup): Problem[] {
  if (!setup.cloudApi && !setup.twilio) return [];
  const problems: Problem[] = [];
  for (const dialog of triggerDialogs(definition)) {
    const at = `dialogs[${definition.dialogs.indexOf(dialog)}]`;
    const template = dialog.whatsappTemplate;
    if (!template)
      problems.push({
        path: at,
        message: `dialog "${dialog.id}" may be started by a trigger and names no whatsappTemplate: with WhatsApp configured, a trigger for a user who last wrote more than 24 hours ago is refused (409 whatsapp_window_closed)`,
        hint: 'add "whatsappTemplate": { "name", "language", "parameters" } naming the template approved at Meta (docs/channels.md)',
        severity: 'warning',
      });
    else if (setup.twilio && !template.contentSid)
      problems.push({
        path: `${at}.whatsappTemplate`,
        message: `dialog "${dialog.id}"'s template has no contentSid: WhatsApp through Twilio (TWILIO_WHATSAPP_FROM) sends a template by its Content SID, so such a trigger is refused there`,
        hint: "add the template's Content SID from Twilio's Content Template Builder as contentSid",
        severity: 'warning',
      });
  }
  return problems;
}
