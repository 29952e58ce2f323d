import { humanize, type DesignerStrings } from '../i18n/strings.ts';

/**
 * An integration step type in words: the studio's name for a type it ships (`sendWebhook` → "Send a
 * webhook"), else its key made readable (a bot's own `crmLookup` → "Crm lookup"). The key stays what
 * the definition, the CLI and the API name it by.
 */
export function stepTypeName(t: DesignerStrings, key: string): string {
  return t.stepTypeNames[key] ?? humanize(key);
}
