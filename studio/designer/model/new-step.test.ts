import { describe, expect, it } from 'vitest';
import de from '../i18n/strings-de.ts';
import { en } from '../i18n/strings.ts';
import { newStep } from './new-step.ts';

describe('a new step from the palette', () => {
  it('when a step kind is picked, then its id is the kind as the studio names it in its language', () => {
    expect(newStep('input', en).id).toBe('question');
    expect(newStep('input', de).id).toBe('frage');
    expect(newStep('message', de).id).toBe('nachricht');
    expect(newStep('goto', en).id).toBe('go-to-dialog');
    // Letters with marks are spelt out as German writes them without the mark.
    expect(newStep('clearUserData', de).id).toBe('benutzerdaten-loeschen');
    expect(newStep('linkChannels', de).id).toBe('kanaele-verknuepfen');
    expect(newStep('nlp', en).id).toBe('free-text-intents');
  });

  it('when an integration step type is picked, then its id is the step type as the palette names it, never its key', () => {
    expect(newStep('integration', en, { stepType: 'sendWebhook' }).id).toBe('send-a-webhook');
    expect(newStep('integration', de, { stepType: 'sendWebhook' }).id).toBe('einen-webhook-senden');
    expect(newStep('integration', de, { stepType: 'slackPostMessage' }).id).toBe('slack-eine-nachricht-posten');
    // A bot's own step type, which the studio has no name for, by its key made readable.
    expect(newStep('integration', en, { stepType: 'crmLookup' }).id).toBe('crm-lookup');
    // The definition still names the step type by its key.
    expect(newStep('integration', de, { stepType: 'sendWebhook' }).integration).toBe('sendWebhook');
  });
});
