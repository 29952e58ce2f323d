import { t, type StringKey } from '../i18n/strings.ts';
import type { Change } from './types.ts';

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

/**
 * A change of the publish plan in the reader's language, from its structured fields (the
 * server's `words` are English, for the API and the command line).
 */
export function changeInWords(change: Change): string {
  const values = { dialog: change.dialogId ?? '', step: change.stepId ?? '', id: change.id ?? '', fields: (change.fields ?? []).join(', '), part: cap(change.id ?? change.path) };
  if (change.what === 'settings') return t('changeSettings', values);
  if (change.what === 'part') return t('changePart', values);
  if (change.what === 'dialog' && change.kind === 'changed') return t(change.fields?.length === 1 && change.fields[0] === 'order' ? 'changeDialogReordered' : 'changeDialogChanged', values);
  const key = KEYS[`${change.kind} ${change.what}`];
  return key ? t(key, values) : change.words;
}
