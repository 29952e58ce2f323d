import { shared } from '../../app/styles.ts';
import { StudioScreen } from '../../app/studio-screen.ts';
import { language } from '../../i18n/catalogue.ts';
import { t } from '../../i18n/strings.ts';

/** What every settings panel shares beyond a studio screen: the studio's common look. */
export class SettingsPanel extends StudioScreen {
  static override styles = [shared];
}

/** A time in the studio's language, or "never". */
export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString(language()) : t('never'));
