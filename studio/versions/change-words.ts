import { t, type StringKey } from '../i18n/strings.ts';
import type { Change } from '../../shared/studio-versions.ts';

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const KEYS: Record<string, StringKey> = {
  'added dialog': 'changeDialogAdded',
  'removed dialog': 'changeDialogRemoved',
  'added step': 'changeStepAdded',
  'removed step': 'changeStepRemoved',
  'changed step': 'changeStepChanged',
  'added intent': 'changeIntentAdded',
  'removed intent': 'changeIntentRemoved',
  'changed intent': 'changeIntentChanged',
  'added faq': 'changeFaqAdded',
  'removed faq': 'changeFaqRemoved',
  'changed faq': 'changeFaqChanged',
};

/** The definition's top-level parts by name, as a person reads them (the diff names the key). */
const PARTS: Record<string, StringKey> = {
  userDataFields: 'partUserDataFields',
  integrations: 'partIntegrations',
  stepTypes: 'partStepTypes',
  pageEvents: 'partPageEvents',
  $schema: 'partSchema',
};

const PART_KINDS: Record<string, StringKey> = {
  added: 'changePartAdded',
  removed: 'changePartRemoved',
  changed: 'changePartChanged',
};

/**
 * A change of the publish plan in the reader's language, from its structured fields (the
 * server's `words` are English, for the API and the command line).
 */
export function changeInWords(change: Change): string {
  const key = change.id ?? change.path;
  const part = PARTS[key] ? t(PARTS[key]) : cap(key);
  const values = {
    dialog: change.dialogId ?? '',
    step: change.stepId ?? '',
    id: change.id ?? '',
    fields: (change.fields ?? []).join(', '),
    part,
  };
  if (change.what === 'settings') return t('changeSettings', values);
  if (change.what === 'part') return t(PART_KINDS[change.kind] ?? 'changePartChanged', values);
  if (change.what === 'dialog' && change.kind === 'changed')
    return t(
      change.fields?.length === 1 && change.fields[0] === 'order' ? 'changeDialogReordered' : 'changeDialogChanged',
      values,
    );
  const words = KEYS[`${change.kind} ${change.what}`];
  return words ? t(words, values) : change.words;
}
