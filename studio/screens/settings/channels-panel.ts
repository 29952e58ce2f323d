import type { StudioAnswer } from '../../../shared/studio-api.ts';
import type { ChannelSettingsChange } from '../../../shared/studio-channels.ts';
import { css, html, nothing } from 'lit';
import { ApiError } from '../../api/client.ts';
import { shared } from '../../app/styles.ts';
import { channelName } from '../../i18n/channel-names.ts';
import { en, t, type StringKey } from '../../i18n/strings.ts';
import { SettingsPanel, when } from './panel.ts';

type Connector = StudioAnswer<'listChannels'>[number];
type Setting = Connector['settings'][number];

const label = (variable: string) => t(`field_${variable}` as StringKey);
const hint = (variable: string) => t(`hint_${variable}` as StringKey);
const connectorName = (connector: Connector) => t(`channel_${connector.connector}` as StringKey);

/**
 * What a connector still needs, by the labels of the fields below it ("Bot token, Webhook secret"),
 * not by the variables the server reads them from ("TELEGRAM_BOT_TOKEN"). The server names a choice
 * as "A or B"; a variable without a label stays as the server names it.
 */
const missingInWords = (missing: readonly string[]): string =>
  missing
    .map((item) =>
      item
        .split(' or ')
        .map((variable) => (`field_${variable}` in en ? label(variable) : variable))
        .join(` ${t('or')} `),
    )
    .join(', ');

/**
 * Settings → Channels (owners): per connector its settings (credentials write-only: "set" or
 * "not set", never read back), where they come from (the environment wins, and its fields are
 * read-only here), its webhook URLs to copy, and a test message through the real send.
 */
export class StudioChannelsPanel extends SettingsPanel {
  static override styles = [
    shared,
    css`
      section {
        border-top: 1px solid #d0d5da;
        padding-top: 0.5rem;
        margin-top: 1rem;
      }
      h3 {
        font-size: 1.1rem;
        margin: 0.5rem 0;
      }
      h4 {
        font-size: 1rem;
        margin: 1rem 0 0.25rem;
      }
      summary {
        cursor: pointer;
        color: #0b5cad;
        margin: 0.25rem 0 0.5rem;
      }
      .row {
        display: flex;
        gap: 0.5rem;
        align-items: end;
        flex-wrap: wrap;
      }
      .row label {
        flex: 1 1 20rem;
      }
      .on {
        color: #1a7f37;
        font-weight: 600;
      }
      /* In the flow at the end of the section acted on, so it covers nothing; empty, it takes no room but stays a live region. */
      .outcome p:empty {
        margin: 0;
      }
    `,
  ];
  static override properties = {
    ...SettingsPanel.properties,
    connectors: { state: true },
    fieldErrors: { state: true },
    acted: { state: true },
  };
  declare private connectors: Connector[];
  /** The connector whose section was acted on last: its outcome shows there, under the owner's eyes. */
  declare private acted: string | null;
  /** The server's refusal of a field, by variable: shown beside the field, in the studio's words. */
  declare private fieldErrors: Record<string, string>;

  constructor() {
    super();
    this.connectors = [];
    this.fieldErrors = {};
    this.acted = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    this.connectors = (await this.attempt(() => this.api.request('listChannels'))) ?? this.connectors;
  }

  /** Runs a change; a refusal the panel can word better than the shell (a field, the environment) is worded here. */
  private async send<T>(connector: Connector, work: () => Promise<T>, done: string): Promise<T | undefined> {
    this.acted = connector.connector;
    this.fieldErrors = {};
    this.status = '';
    this.error = '';
    this.busy = true;
    try {
      const result = await work();
      this.status = done;
      return result;
    } catch (error) {
      this.error = this.refusal(error);
      return undefined;
    } finally {
      this.busy = false;
    }
  }

  private refusal(error: unknown): string {
    if (!(error instanceof ApiError)) return t('errorGeneric');
    const fields = error.details.fields;
    if (error.code === 'invalid_body' && fields && typeof fields === 'object') {
      this.fieldErrors = Object.fromEntries(
        Object.keys(fields).map((variable) => [
          variable,
          t('channelFieldError', { label: label(variable), hint: hint(variable) }),
        ]),
      );
      return t('errorInvalidInput');
    }
    if (error.code === 'set_in_environment') return t('channelEnvironmentWins');
    if (error.code === 'channel_off')
      return t('channelTestOff', { missing: missingInWords((error.details.missing as string[] | undefined) ?? []) });
    return error.message;
  }

  private async save(connector: Connector, event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const formElement = event.target as HTMLFormElement;
    const form = new FormData(formElement);
    const values: Record<string, string | null> = {};
    for (const setting of connector.settings) {
      const typed = String(form.get(setting.variable) ?? '').trim();
      // A credential is kept when its field is left empty; a plain value emptied is removed.
      if (setting.secret) {
        if (typed !== '') values[setting.variable] = typed;
      } else if (typed !== (setting.value ?? '')) values[setting.variable] = typed === '' ? null : typed;
    }
    const name = connectorName(connector);
    if (Object.keys(values).length === 0) {
      this.acted = connector.connector;
      this.status = t('channelNothingChanged', { connector: name });
      return;
    }
    const saved = await this.send(
      connector,
      () => this.api.request('saveChannel', { params: { connector: connector.connector }, body: { values } }),
      t('channelSaved', { connector: name }),
    );
    // A credential leaves the page once: its fields are emptied when it was taken.
    if (saved) {
      for (const setting of connector.settings)
        if (setting.secret) (formElement.elements.namedItem(setting.variable) as HTMLInputElement | null)!.value = '';
      await this.load();
    }
  }

  private async clear(connector: Connector): Promise<void> {
    const values: ChannelSettingsChange = Object.fromEntries(connector.settings.map((s) => [s.variable, null]));
    const name = connectorName(connector);
    if (!confirm(t('channelClear', { connector: name }) + '?')) return;
    const cleared = await this.send(
      connector,
      () => this.api.request('saveChannel', { params: { connector: connector.connector }, body: { values } }),
      t('channelCleared', { connector: name }),
    );
    if (cleared) await this.load();
  }

  private async copy(connector: Connector, channel: string, url: string): Promise<void> {
    this.acted = connector.connector;
    this.status = '';
    this.error = '';
    try {
      await navigator.clipboard.writeText(url);
      this.status = t('channelCopied', { channel: channelName(channel) });
    } catch {
      this.error = t('channelCopyFailed');
    }
  }

  private async test(connector: Connector, event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const channel = String(form.get('channel') ?? connector.channels[0]!.name);
    const address = String(form.get('address') ?? '').trim();
    const outcome = await this.send(
      connector,
      () =>
        this.api.request('testChannel', {
          params: { connector: connector.connector },
          body: { channel, address, text: t('channelTestText') },
        }),
      '',
    );
    if (!outcome) return;
    if (outcome.delivered) this.status = t('channelTestDelivered', { channel: channelName(channel) });
    else {
      this.status = '';
      this.error = t('channelTestRefused', {
        channel: channelName(channel),
        code: outcome.vendorCode ?? '—',
        answer: outcome.vendorAnswer,
      });
    }
  }

  private field(connector: Connector, setting: Setting) {
    const id = `${connector.connector}-${setting.variable}`;
    const fromEnvironment = connector.source === 'environment';
    const error = this.fieldErrors[setting.variable];
    const described = [setting.secret ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
    return html`<label
        >${label(setting.variable)} <code class="hint">${setting.variable}</code>
        <input
          name=${setting.variable}
          type=${setting.secret ? 'password' : 'text'}
          .value=${setting.secret ? '' : (setting.value ?? '')}
          ?disabled=${fromEnvironment}
          ?required=${setting.required && !setting.set && !setting.secret}
          autocomplete="off"
          spellcheck="false"
          aria-invalid=${error ? 'true' : 'false'}
          aria-describedby=${described || nothing}
      /></label>
      ${setting.secret ? html`<span class="hint" id="${id}-hint">${t(setting.set ? 'channelSecretSet' : 'channelSecretUnset')}</span>` : nothing}
      ${error ? html`<span class="error" id="${id}-error">${error}</span>` : nothing}`;
  }

  /** A connector's settings are folded away once it is on (or set in the environment); open while being set up or refused. */
  private opened(connector: Connector): boolean {
    const refused = connector.settings.some((setting) => this.fieldErrors[setting.variable] !== undefined);
    return refused || (connector.source === 'studio' && !connector.on);
  }

  private section(connector: Connector) {
    const name = connectorName(connector);
    const headingId = `channel-${connector.connector}`;
    const fromEnvironment = connector.source === 'environment';
    const on = connector.channels.filter((channel) => channel.on).map((channel) => channel.name);
    return html`<section aria-labelledby=${headingId}>
      <h3 id=${headingId}>${name}</h3>
      <p class=${connector.on ? 'on' : ''}>
        ${connector.on ? t('channelOn', { channels: on.map(channelName).join(', ') }) : t('channelOff', { missing: missingInWords(connector.missing) })}
      </p>
      ${connector.imagePathsUnresolved ? html`<p class="notice">${t('channelImagePaths', { connector: name })}</p>` : nothing}
      <p class=${fromEnvironment ? 'notice' : ''}>
        ${t(fromEnvironment ? 'channelSourceEnvironment' : connector.source === 'studio' ? 'channelSourceStudio' : 'channelSourceNone')}
        ${connector.updatedAt && !fromEnvironment ? t('channelUpdated', { when: when(connector.updatedAt), who: connector.updatedBy ?? '' }) : nothing}
      </p>
      <details ?open=${this.opened(connector)}>
      <summary>${t('channelSettingsOf', { connector: name })}</summary>
      <form @submit=${(event: SubmitEvent) => this.save(connector, event)}>
        ${connector.settings.map((setting) => this.field(connector, setting))}
        ${
          fromEnvironment
            ? nothing
            : html`<div class="row">
                <button type="submit" ?disabled=${this.busy}>${t('channelSave', { connector: name })}</button>
                ${
                  connector.source === 'studio'
                    ? html`<button type="button" class="danger" ?disabled=${this.busy} @click=${() => this.clear(connector)}>
                        ${t('channelClear', { connector: name })}
                      </button>`
                    : nothing
                }
              </div>`
        }
      </form>
      </details>
      <h4>${t('channelWebhooks')}</h4>
      ${connector.channels.map(
        (channel) => html`<div class="row">
          <label>${t('channelWebhook', { channel: channelName(channel.name) })}
            <input readonly .value=${channel.webhookUrl} spellcheck="false" />
          </label>
          <button type="button" class="secondary" @click=${() => this.copy(connector, channel.name, channel.webhookUrl)}>
            ${t('channelCopy', { channel: channelName(channel.name) })}
          </button>
        </div>`,
      )}
      ${
        connector.on
          ? html`<h4>${t('channelTestTitle')}</h4>
            <form @submit=${(event: SubmitEvent) => this.test(connector, event)}>
              ${
                on.length > 1
                  ? html`<label>${t('channelTestChannel')}
                      <select name="channel">${on.map((channel) => html`<option value=${channel}>${channelName(channel)}</option>`)}</select>
                    </label>`
                  : html`<input type="hidden" name="channel" value=${on[0]!} />`
              }
              <label>${t(`address_${connector.connector}` as StringKey)}
                <input name="address" required autocomplete="off" spellcheck="false" />
              </label>
              <button type="submit" ?disabled=${this.busy}>${t('channelTestSend', { connector: name })}</button>
            </form>`
          : nothing
      }
      ${this.outcome(connector.connector)}
    </section>`;
  }

  /** The status and error lines of a section (or, for the list itself, of the page): live regions from the start, filled where the owner acted. */
  private outcome(connector: string | null) {
    const here = this.acted === connector;
    return html`<div class="outcome">
      <p role="status">${here ? this.status : ''}</p>
      <p class="error" role="alert">${here ? this.error : ''}</p>
    </div>`;
  }

  override render() {
    return html`
      <h2>${t('channelsTitle')}</h2>
      <p>${t('channelsIntro')}</p>
      ${this.outcome(null)}
      ${this.connectors.map((connector) => this.section(connector))}
    `;
  }
}
customElements.define('studio-channels-panel', StudioChannelsPanel);
