/**
 * The studio preview's socket protocol (namespace PREVIEW_NAMESPACE on the bot's own socket.io
 * server): the designer's preview panel drives an author's preview over a control socket, and
 * the real widget talks to the same preview user over a chat socket, both signed in by the
 * studio session cookie. Types and constants only; the server validates every payload.
 */
/** The socket.io namespace of previews; the web chat's own is "/". */
export const PREVIEW_NAMESPACE = '/studio-preview';

/** Sent by the panel in its handshake (`auth`); the widget's handshake has no `control`. */
export interface PreviewControlAuth {
  readonly control: true;
}

/** Most starting values a preview takes (variables and user-data fields together). */
export const MAX_START_VALUES = 50;

export interface StartPreview {
  /** Where the conversation begins: the start dialog when absent. */
  readonly dialogId?: string;
  /** A step of that dialog; its first step when absent. */
  readonly stepId?: string;
  /** Conversation variables set before the first step runs. */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** User-data fields (declared by the definition) set before the first step runs. */
  readonly userData?: Readonly<Record<string, unknown>>;
}

/** How the author answers a call held as a dry run. */
export type CallAnswer =
  /** An HTTP call: answer it with this response instead of sending it. */
  | { readonly kind: 'stub'; readonly status: number; readonly body: string; readonly contentType?: string }
  /** Send it for real, as the live bot would. */
  | { readonly kind: 'send' }
  /** Email or SMS: treat it as sent without sending it. */
  | { readonly kind: 'skip' }
  /** Email or SMS: treat it as failed, so the step's onError runs. */
  | { readonly kind: 'fail' };

/** A request as it would go out, with every secret masked (`‹NAME›` for a named secret, `‹hidden›` for another credential). */
export interface MaskedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string | null;
}

/** A call the preview holds until the author answers it. */
export interface HeldCall {
  readonly id: string;
  readonly kind: 'http' | 'email' | 'sms';
  /** The step that makes it; null for a call made outside a step. */
  readonly step: { readonly dialogId: string; readonly stepId: string } | null;
  /** True for an asynchronous step's call: the conversation went on without waiting for it. */
  readonly async: boolean;
  readonly request?: MaskedRequest;
  readonly email?: {
    readonly from: string;
    readonly to: readonly string[];
    readonly cc: readonly string[];
    readonly replyTo: string | null;
    readonly subject: string;
    readonly body: string;
  };
  readonly sms?: { readonly to: string; readonly text: string };
  /** False when the server cannot send this kind for real (no SMTP_URL, no SMS_URL). */
  readonly canSendForReal: boolean;
}

/** Something the preview did that the author may want to know; the panel words it. */
export type PreviewActivity =
  | { readonly at: number; readonly what: 'started'; readonly dialogId: string; readonly stepId: string | null }
  | {
      readonly at: number;
      readonly what: 'answered';
      readonly kind: HeldCall['kind'];
      readonly step: HeldCall['step'];
      readonly answer: CallAnswer['kind'];
      readonly status?: number;
    }
  | { readonly at: number; readonly what: 'callFailed'; readonly step: HeldCall['step']; readonly message: string }
  /** An asynchronous step's call ended (its result does not enter the conversation; a failure would reach subscribers as integration.failed). */
  | {
      readonly at: number;
      readonly what: 'asyncDone';
      readonly step: HeldCall['step'];
      readonly ok: boolean;
      readonly kind?: string;
      readonly message?: string;
    }
  | {
      readonly at: number;
      readonly what: 'realResponse';
      readonly step: HeldCall['step'];
      readonly status: number;
      readonly body: string;
    }
  /** A record the live bot would write (NLP log, FAQ log, integration log, email and SMS logs, snapshots): left out of them. */
  | { readonly at: number; readonly what: 'notLogged'; readonly log: string }
  | { readonly at: number; readonly what: 'timerSet'; readonly timerId: string; readonly dueAt: number }
  | { readonly at: number; readonly what: 'timerRan'; readonly timerId: string }
  | { readonly at: number; readonly what: 'valuesSet' }
  | { readonly at: number; readonly what: 'testSaved'; readonly name: string };

/** A wait step's timer pending in a preview; `id` is the engine's timer id, "<dialogId>.<stepId>" of the wait step. */
export interface PreviewTimer {
  readonly id: string;
  readonly dueAt: number;
}

/** The author's preview as the panel shows it; sent whole on every change. */
export interface PreviewState {
  readonly active: boolean;
  /** The draft's revision the preview runs; the draft may have moved on since (the panel offers a restart). */
  readonly draftRevision?: number;
  readonly from?: { readonly dialogId: string; readonly stepId: string | null };
  readonly position?: { readonly dialogId: string; readonly stepId: string; readonly awaiting: boolean } | null;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly userData?: Readonly<Record<string, unknown>>;
  readonly held?: readonly HeldCall[];
  readonly timers?: readonly PreviewTimer[];
  /** Newest last, the latest 50. */
  readonly activity?: readonly PreviewActivity[];
  /** Values were changed by hand after the start: such a conversation cannot become a test. */
  readonly edited?: boolean;
}

/** Why a preview could not start: the draft's problems, as `chatbot check` words them. */
export interface PreviewProblem {
  readonly path: string;
  readonly message: string;
}

/** Codes a preview refusal carries; the panel words each for the author. */
export const PREVIEW_ERROR_CODES = [
  'invalid_payload',
  'definition_invalid',
  'no_preview',
  'call_gone',
  'timer_gone',
  'not_a_test',
  'not_allowed',
  'rate_limited',
  'internal',
] as const;
export type PreviewErrorCode = (typeof PREVIEW_ERROR_CODES)[number];

export interface PreviewError {
  readonly code: PreviewErrorCode;
  /** For developers (the console); the panel shows its own sentence for the code. */
  readonly message: string;
  /** With definition_invalid: what blocks the draft. */
  readonly problems?: readonly PreviewProblem[];
}

export type PreviewAck<T> = (
  response: { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: PreviewError },
) => void;

export interface PreviewClientEvents {
  /** Starts (or restarts) the author's preview on their draft as saved now. */
  start: (payload: StartPreview, ack: PreviewAck<PreviewState>) => void;
  /** Ends the preview; its preview user is erased. */
  stop: (payload: Readonly<Record<string, never>>, ack: PreviewAck<null>) => void;
  answer: (payload: { readonly callId: string; readonly answer: CallAnswer }, ack: PreviewAck<null>) => void;
  /** Changes variables and user-data fields now (the inspector). */
  set_values: (
    payload: {
      readonly variables?: Readonly<Record<string, unknown>>;
      readonly userData?: Readonly<Record<string, unknown>>;
    },
    ack: PreviewAck<null>,
  ) => void;
  /** Runs a wait step's timer now instead of waiting. */
  run_timer: (payload: { readonly timerId: string }, ack: PreviewAck<null>) => void;
  /** Saves the conversation so far as a test of the bot. */
  save_test: (
    payload: { readonly name: string },
    ack: PreviewAck<{ readonly name: string; readonly tests: number }>,
  ) => void;
}

export interface PreviewServerEvents {
  state: (state: PreviewState) => void;
}
