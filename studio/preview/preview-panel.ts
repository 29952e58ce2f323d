import { css, html, LitElement, nothing } from 'lit';
import { io, type Socket } from 'socket.io-client';
import {
  PREVIEW_NAMESPACE,
  type CallAnswer,
  type HeldCall,
  type PreviewError,
  type PreviewState,
  type PreviewTimer,
  type StartPreview,
} from '../../shared/preview-protocol.ts';
import type { BotMessage, HandshakeAuth } from '../../shared/protocol.ts';
import { defineChatWidget } from '../../widget/define.ts';
import { SocketTransport } from '../../widget/transport/socket-transport.ts';
import type { Transport } from '../../widget/transport/transport.ts';
import type { SessionInfo } from '../api/client.ts';
import { stringsFor } from '../designer/i18n/i18n.ts';
import type { DesignerStrings } from '../designer/i18n/strings.ts';
import { format } from '../i18n/catalogue.ts';
import './channel-view.ts';
import { bound, states } from '../app/reactive.ts';

/** What the panel needs of the designer it sits in: where to show the preview's position and values. */
export interface PreviewHost {
  currentStep: { dialog: string; step: string } | undefined;
  liveValues: Readonly<Record<string, unknown>> | undefined;
  /**
   * Saves the draft now if the screen is ahead of it (an edit, an undo or redo still waiting for
   * its autosave), so the preview runs what the author sees, not the draft of a second ago.
   */
  saveDraftNow(): Promise<void>;
}

type Ack<T> = { ok: true; value: T } | { ok: false; error: PreviewError };

/** The widget keeps its session per server origin; a new preview user needs a widget that starts afresh. */
const widgetSessionKey = () => `chat-widget:session:${location.origin}`;

/**
 * The designer's preview panel: the author's draft on the server's engine (the preview socket),
 * chatted with in the real widget (`<chat-widget>` with its own socket transport, pointed at the
 * preview namespace, so the chat looks and behaves as visitors will see it). Held calls are listed
 * with their answers; the position is highlighted in the outline and the values shown live.
 */
export class StudioPreviewPanel extends LitElement {
  static override properties = {
    ...bound('session', 'host', 'chosen'),
    locale: {},
    ...states('preview', 'message', 'testName', 'lastBotMessage'),
  };

  static override styles = css`
    :host { display: block; }
    .row { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-block: 0.5rem; }
    button { font: inherit; padding: 0.3rem 0.7rem; }
    button:focus-visible, input:focus-visible, textarea:focus-visible { outline: 3px solid #1a56db; outline-offset: 2px; }
    pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f4f4f5; color: #111; padding: 0.5rem; margin: 0.25rem 0; max-height: 12rem; overflow: auto; }
    ul.calls { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.75rem; }
    ul.calls > li { border: 1px solid #71717a; border-radius: 6px; padding: 0.5rem; }
    label { display: block; margin-block: 0.25rem; }
    textarea { width: 100%; box-sizing: border-box; font: inherit; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 0.75rem; margin: 0; }
    dt { font-weight: 600; }
    dd { margin: 0; overflow-wrap: anywhere; }
    h3 { font-size: 1rem; margin-block: 1rem 0.25rem; }
    /* The widget floats over a shop's page; here it sits in the panel, so it covers none of the studio. */
    chat-widget { position: static; display: block; z-index: auto; }
    chat-widget::part(panel) { width: 100%; height: 28rem; box-shadow: none; border: 1px solid #71717a; }
  `;

  declare session: SessionInfo | undefined;
  declare host: PreviewHost | undefined;
  /** The step open in the designer's outline: where "Start from this step" starts. */
  declare chosen: { dialogId: string; stepId: string } | undefined;
  declare locale: string;
  declare private preview: PreviewState;
  declare private message: string;
  declare private testName: string;
  /** The bot's latest message in the chat: the channel view shows it as each channel would. */
  declare private lastBotMessage: BotMessage | undefined;
  private control: Socket | undefined;
  private widget: HTMLElement | undefined;
  private readonly stubs = new Map<string, { status: string; body: string }>();

  constructor() {
    super();
    this.locale = document.documentElement.lang || navigator.language;
    this.preview = { active: false };
    this.message = '';
    this.testName = '';
  }

  private get t(): DesignerStrings['previewPanel'] {
    return stringsFor(this.locale).previewPanel;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    defineChatWidget();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.control?.disconnect();
    this.control = undefined;
    this.widget?.remove();
  }

  /** The control socket, opened on first use: the studio session cookie goes with it, the CSRF token in its handshake. */
  private socket(): Socket {
    if (this.control) return this.control;
    const socket = io(PREVIEW_NAMESPACE, {
      auth: { control: true, csrfToken: this.session?.csrfToken ?? '' },
      transports: ['websocket', 'polling'],
    });
    socket.on('state', (state: PreviewState) => this.show(state));
    socket.on('connect_error', (error: Error) => (this.message = format(this.t.failed, { message: error.message })));
    this.control = socket;
    return socket;
  }

  private show(state: PreviewState): void {
    this.preview = state;
    if (!this.host) return;
    // A step whose call waits for the author is where the conversation is, though its turn has not ended yet;
    // an asynchronous step's call is not: the conversation went on past it.
    const at = !state.active ? null : (state.held?.find((call) => call.step && !call.async)?.step ?? state.position);
    this.host.currentStep = at ? { dialog: at.dialogId, step: at.stepId } : undefined;
    this.host.liveValues = state.active ? { ...(state.variables ?? {}), ...(state.userData ?? {}) } : undefined;
  }

  private request<T>(event: string, payload: unknown): Promise<T | undefined> {
    return new Promise((resolve) => {
      this.socket().emit(event, payload, (ack: Ack<T>) => {
        if (ack.ok) return resolve(ack.value);
        const { code, message } = ack.error;
        this.message =
          code === 'definition_invalid'
            ? this.t.definitionInvalid
            : code === 'not_a_test'
              ? format(this.t.notATest, { message })
              : code === 'call_gone'
                ? this.t.callGone
                : code === 'timer_gone'
                  ? this.t.timerGone
                  : format(this.t.failed, { message });
        resolve(undefined);
      });
    });
  }

  private async start(from: StartPreview): Promise<void> {
    this.message = '';
    await this.host?.saveDraftNow();
    const state = await this.request<PreviewState>('start', from);
    if (!state) return;
    this.show(state);
    this.openChat();
  }

  /** A fresh widget for the new preview user: the old one's transcript belongs to the user the restart erased. */
  private openChat(): void {
    this.widget?.remove();
    this.lastBotMessage = undefined;
    localStorage.removeItem(widgetSessionKey());
    const csrfToken = this.session?.csrfToken ?? '';
    const widget = document.createElement('chat-widget');
    widget.hideLauncher = true;
    widget.chatTitle = this.t.chat;
    widget.transportFactory = (url: string): Transport => {
      const inner = new SocketTransport(url);
      inner.on('entries', (items) => {
        const last = items.findLast((item) => item.from === 'bot');
        if (last) this.lastBotMessage = last.message as BotMessage;
      });
      // The widget's own handshake, with the studio session's CSRF token that the preview socket asks for.
      return {
        connect: (auth) => inner.connect(() => ({ ...auth(), csrfToken }) as HandshakeAuth),
        emit: (event, payload, ack) => inner.emit(event, payload, ack),
        on: (event, listener) => inner.on(event, listener),
        disconnect: () => inner.disconnect(),
      };
    };
    widget.serverUrl = `${location.origin}${PREVIEW_NAMESPACE}`;
    widget.open = true;
    this.renderRoot.querySelector('.chat')?.append(widget);
    this.widget = widget;
  }

  private async stop(): Promise<void> {
    await this.request('stop', {});
    this.widget?.remove();
    this.widget = undefined;
    this.lastBotMessage = undefined;
  }

  private async answer(call: HeldCall, answer: CallAnswer): Promise<void> {
    await this.request('answer', { callId: call.id, answer });
  }

  private async skipWait(timer: PreviewTimer): Promise<void> {
    await this.request('run_timer', { timerId: timer.id });
  }

  private async saveTest(): Promise<void> {
    const name = this.testName.trim();
    if (!name) return;
    const saved = await this.request<{ name: string; tests: number }>('save_test', { name });
    if (saved) this.message = format(this.t.testSaved, { name: saved.name, n: saved.tests });
  }

  private stubOf(call: HeldCall): { status: string; body: string } {
    let stub = this.stubs.get(call.id);
    if (!stub) this.stubs.set(call.id, (stub = { status: '200', body: '{}' }));
    return stub;
  }

  private renderCall(call: HeldCall) {
    const t = this.t;
    const step = call.step ? `${call.step.dialogId}.${call.step.stepId}` : '—';
    const title = format(
      call.kind === 'http' ? (call.async ? t.asyncCall : t.httpCall) : call.kind === 'email' ? t.emailCall : t.smsCall,
      { step },
    );
    const request = call.request;
    const shown = request
      ? `${request.method} ${request.url}\n${request.headers.map(([k, v]) => `${k}: ${v}`).join('\n')}${request.body ? `\n\n${request.body}` : ''}`
      : call.email
        ? `To: ${call.email.to.join(', ')}\nSubject: ${call.email.subject}\n\n${call.email.body}`
        : `To: ${call.sms?.to ?? ''}\n\n${call.sms?.text ?? ''}`;
    const stub = this.stubOf(call);
    return html`<li>
      <section aria-label=${title}>
        <h4>${title}</h4>
        <pre>${shown}</pre>
        ${
          call.kind === 'http'
            ? html`<label>${t.stubStatus} <input type="number" min="100" max="599" .value=${stub.status} @input=${(e: Event) => (stub.status = (e.target as HTMLInputElement).value)} /></label>
              <label>${t.stubBody} <textarea rows="3" .value=${stub.body} @input=${(e: Event) => (stub.body = (e.target as HTMLTextAreaElement).value)}></textarea></label>
              <div class="row">
                <button @click=${() => this.answer(call, { kind: 'stub', status: Number(stub.status) || 200, body: stub.body })}>${t.answerStub}</button>
                <button @click=${() => this.answer(call, { kind: 'send' })}>${t.sendReal}</button>
              </div>`
            : html`<div class="row">
              <button @click=${() => this.answer(call, { kind: 'skip' })}>${t.skip}</button>
              <button @click=${() => this.answer(call, { kind: 'fail' })}>${t.fail}</button>
              <button ?disabled=${!call.canSendForReal} @click=${() => this.answer(call, { kind: 'send' })}>${t.sendReal}</button>
            </div>`
        }
      </section>
    </li>`;
  }

  private renderTimers(timers: readonly PreviewTimer[]) {
    const t = this.t;
    if (timers.length === 0) return html`<p>${t.noWaits}</p>`;
    const when = new Intl.DateTimeFormat(this.locale, { dateStyle: 'medium', timeStyle: 'short' });
    return html`<ul class="calls">
      ${timers.map(
        (timer) => html`<li>
          <p>${format(t.waitUntil, { step: timer.id, at: when.format(timer.dueAt) })}</p>
          <button aria-label=${format(t.skipWaitAt, { step: timer.id })} @click=${() => this.skipWait(timer)}>${t.skipWait}</button>
        </li>`,
      )}
    </ul>`;
  }

  /** How the latest asynchronous call ended: its result does not show in the chat, so the panel says it. */
  private renderAsyncOutcome(state: PreviewState) {
    const done = [...(state.activity ?? [])].reverse().find((entry) => entry.what === 'asyncDone');
    if (!done || done.what !== 'asyncDone') return nothing;
    const t = this.t;
    const step = done.step ? `${done.step.dialogId}.${done.step.stepId}` : '—';
    return html`<p>${done.ok ? format(t.asyncOk, { step }) : format(t.asyncFailed, { step, message: done.message ?? '' })}</p>`;
  }

  override render() {
    const t = this.t;
    const state = this.preview;
    const chosen = this.chosen;
    const values = state.active ? { ...(state.variables ?? {}), ...(state.userData ?? {}) } : {};
    const position = state.active ? state.position : undefined;
    const status = !state.active
      ? t.notRunning
      : position
        ? format(t.runningAt, { at: `${position.dialogId}.${position.stepId}` })
        : t.runningDone;
    return html`
      <h3>${t.heading}</h3>
      <div class="row" role="group" aria-label=${t.controls}>
        <button @click=${() => this.start({})}>${state.active ? t.restart : t.start}</button>
        <button ?disabled=${!chosen} aria-describedby=${chosen ? nothing : 'no-step'} @click=${() => chosen && this.start(chosen)}>${t.startHere}</button>
        <button ?disabled=${!state.active} @click=${() => this.stop()}>${t.stop}</button>
      </div>
      ${chosen ? nothing : html`<p id="no-step">${t.noStepChosen}</p>`}
      <p role="status">${status}</p>
      ${this.message ? html`<p role="alert">${this.message}</p>` : nothing}
      <div class="chat"></div>
      <studio-channel-view .message=${this.lastBotMessage} .session=${this.session} .locale=${this.locale}></studio-channel-view>
      <h3>${t.held}</h3>
      ${(state.held ?? []).length === 0 ? html`<p>${t.noHeld}</p>` : html`<ul class="calls">${(state.held ?? []).map((call) => this.renderCall(call))}</ul>`}
      ${this.renderAsyncOutcome(state)}
      <h3>${t.waits}</h3>
      ${this.renderTimers(state.active ? (state.timers ?? []) : [])}
      <h3>${t.values}</h3>
      ${
        Object.keys(values).length === 0
          ? html`<p>${t.noValues}</p>`
          : html`<dl aria-label=${t.values}>${Object.entries(values).map(([key, value]) => html`<dt>${key}</dt><dd>${JSON.stringify(value)}</dd>`)}</dl>`
      }
      <div class="row">
        <label>${t.testName} <input .value=${this.testName} @input=${(e: Event) => (this.testName = (e.target as HTMLInputElement).value)} /></label>
        <button ?disabled=${!state.active || this.testName.trim() === ''} @click=${() => this.saveTest()}>${t.saveTest}</button>
      </div>
    `;
  }
}

if (!customElements.get('studio-preview-panel')) customElements.define('studio-preview-panel', StudioPreviewPanel);
