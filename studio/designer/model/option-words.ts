import type { DesignerStrings } from '../i18n/strings.ts';

/**
 * The words for one of a field's stored values (`inputType` `choice` → "Pick from choices"), as a list,
 * a default and a problem say it; undefined when the studio has none (an HTTP method reads as it is).
 */
export function optionWord(t: DesignerStrings, key: string, value: string): string | undefined {
  return t.options[key]?.[value] ?? (key === 'op' ? t.ops[value] : undefined);
}
