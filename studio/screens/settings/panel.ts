import { states } from '../../app/reactive.ts';
import { shared } from '../../app/styles.ts';
import { StudioScreen } from '../../app/studio-screen.ts';
import { language } from '../../i18n/catalogue.ts';
import { t } from '../../i18n/strings.ts';

/** What every settings panel shares beyond a studio screen: the studio's common look. */
export class SettingsPanel extends StudioScreen {
  static override styles = [shared];
}

/**
 * A settings panel over a list of records (sessions, tokens, secrets, accounts, the audit trail):
 * it reads them when it is shown, and again after each change, so that the list is what the server holds.
 */
export abstract class RecordsPanel extends SettingsPanel {
  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  /** Reads the records; a refusal is the error line and leaves the last list shown. */
  protected abstract load(): Promise<void>;

  /** A change to the records (`done` its confirmation); the list is read again whatever the answer. */
  protected async changeRecords<T>(work: () => Promise<T>, done?: string): Promise<T | undefined> {
    const result = await this.attempt(work, done);
    await this.load();
    return result;
  }
}

/** A records panel over one list that one request reads whole (sessions, tokens, secrets). */
export abstract class ListPanel<Row> extends RecordsPanel {
  static override properties = { ...RecordsPanel.properties, ...states('records') };
  declare protected records: Row[];

  constructor() {
    super();
    this.records = [];
  }

  /** The request that reads the list. */
  protected abstract read(): Promise<Row[]>;

  protected async load(): Promise<void> {
    this.records = (await this.attempt(() => this.read())) ?? this.records;
  }
}

/** A time in the studio's language, or "never". */
export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString(language()) : t('never'));
