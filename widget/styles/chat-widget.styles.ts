import { css } from 'lit';

/**
 * Look of `<chat-widget>`. Hosts restyle through the custom properties below or
 * the exposed parts. Logical properties throughout, so `dir="rtl"` mirrors it.
 *
 * Phones (comments here, as CSS comments would ship in the bundle): the input text is at
 * least 16px, below which iOS zooms the page on focus; safe-area insets keep the launcher and
 * the full-screen panel clear of rounded corners and the home indicator (on pages with
 * viewport-fit=cover); only the conversation scrolls, so reaching its end or swiping the
 * header or form never moves the host page behind.
 *
 * Colour schemes: every colour is a custom property; `color-scheme="dark"` swaps them all,
 * `auto` does so when the visitor's system prefers dark. Values the page sets (init theme,
 * inline style on the element) win over both, as inline styles beat `:host` rules.
 */
const dark = css`
  --chat-bg: #111827;
  --chat-text: #f3f4f6;
  --chat-muted: #9ca3af;
  --chat-bot-bg: #1f2937;
  --chat-border: #4b5563;
  --chat-divider: #374151;
  --chat-notice-bg: #422006;
  --chat-notice-text: #fde68a;
  --chat-error: #f87171;
  --chat-code-bg: rgb(255 255 255 / 0.12);
  color-scheme: dark;
`;

export const chatWidgetStyles = css`
  :host {
    --chat-accent: #2563eb;
    --chat-accent-text: #fff;
    --chat-bg: #fff;
    --chat-text: #111827;
    --chat-muted: #4b5563;
    --chat-bot-bg: #f3f4f6;
    --chat-border: #d1d5db;
    --chat-input-border: var(--chat-border);
    --chat-divider: #e5e7eb;
    --chat-notice-bg: #fef3c7;
    --chat-notice-text: #78350f;
    --chat-badge-bg: #b91c1c;
    --chat-badge-text: #fff;
    --chat-error: #b91c1c;
    --chat-code-bg: rgb(0 0 0 / 0.08);
    --chat-radius: 12px;
    --chat-font: system-ui, sans-serif;
    position: fixed;
    inset-inline-end: calc(var(--chat-offset-x, 20px) + env(safe-area-inset-right, 0px));
    bottom: calc(var(--chat-offset-y, 20px) + env(safe-area-inset-bottom, 0px));
    z-index: 2147483000;
    font: 14px/1.4 var(--chat-font);
    color: var(--chat-text);
  }
  :host([color-scheme='dark']) {
    ${dark}
  }
  @media (prefers-color-scheme: dark) {
    :host([color-scheme='auto']) {
      ${dark}
    }
  }
  :host([position='left']) {
    inset-inline-end: auto;
    left: calc(var(--chat-offset-x, 20px) + env(safe-area-inset-left, 0px));
  }
  :host([position='right']) {
    inset-inline-end: auto;
    right: calc(var(--chat-offset-x, 20px) + env(safe-area-inset-right, 0px));
  }
  :host([position='left']) .launcher {
    margin: 0;
  }
  :host([position='right']) .launcher {
    margin: 0 0 0 auto;
  }
  :host([hide-launcher]) .launcher {
    display: none;
  }
  :host([hide-launcher]) .panel {
    margin: 0;
  }
  [hidden] {
    display: none !important;
  }
  .loading {
    visibility: hidden;
  }
  button {
    font: inherit;
    cursor: pointer;
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.55;
  }
  .launcher {
    position: relative;
    display: block;
    width: 56px;
    height: 56px;
    margin-inline-start: auto;
    border: 0;
    border-radius: 50%;
    background: var(--chat-accent);
    color: var(--chat-accent-text);
    box-shadow: 0 4px 12px rgb(0 0 0 / 0.2);
    transition: transform 0.15s ease;
  }
  .launcher:hover {
    transform: scale(1.05);
  }
  svg {
    width: 24px;
    height: 24px;
    fill: currentColor;
    vertical-align: middle;
  }
  .badge {
    position: absolute;
    top: -4px;
    inset-inline-end: -4px;
    min-width: 20px;
    height: 20px;
    padding: 0 5px;
    box-sizing: border-box;
    border-radius: 10px;
    background: var(--chat-badge-bg);
    color: var(--chat-badge-text);
    font-size: 12px;
    font-weight: 600;
    line-height: 20px;
  }
  .panel {
    display: flex;
    flex-direction: column;
    width: min(360px, calc(100vw - var(--chat-offset-x, 20px) - 20px));
    height: min(560px, calc(100vh - var(--chat-offset-y, 20px) - env(safe-area-inset-bottom, 0px) - 92px));
    margin-bottom: 12px;
    background: var(--chat-bg);
    color: var(--chat-text);
    border-radius: var(--chat-radius);
    box-shadow: 0 8px 30px rgb(0 0 0 / 0.2);
    overflow: hidden;
    animation: rise 0.18s ease-out;
  }
  @keyframes rise {
    from {
      opacity: 0;
      transform: translateY(8px);
    }
  }
  .header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    padding: 8px 8px 8px 14px;
    padding-inline: 14px 8px;
    background: var(--chat-accent);
    color: var(--chat-accent-text);
    font-weight: 600;
  }
  .avatar {
    width: 28px;
    height: 28px;
    border-radius: 50%;
    object-fit: cover;
    margin-inline-end: 8px;
  }
  .title {
    flex: 1;
  }
  .day {
    align-self: center;
    color: var(--chat-muted);
    font-size: 12px;
  }
  .day::first-letter {
    text-transform: uppercase;
  }
  .minimize {
    border: 0;
    background: transparent;
    color: inherit;
    padding: 6px;
    border-radius: 6px;
  }
  .log {
    flex: 1;
    overflow-y: auto;
    overscroll-behavior: contain;
    padding: 12px;
    display: flex;
    flex-direction: column;
    gap: 12px;
  }
  .group {
    display: flex;
    align-items: flex-end;
    gap: 8px;
  }
  .stack,
  ul {
    display: flex;
    flex-direction: column;
    gap: 3px;
  }
  .stack {
    flex: 1;
    min-width: 0;
    align-items: flex-start;
  }
  ul {
    align-self: stretch;
    align-items: inherit;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .user .stack {
    align-items: flex-end;
  }
  .notice .stack {
    align-items: stretch;
  }
  .face {
    position: relative;
    flex: none;
    width: 28px;
    height: 28px;
    margin-bottom: 18px;
    overflow: hidden;
    border-radius: 50%;
    background: var(--chat-accent);
    color: var(--chat-accent-text);
    font-size: 13px;
    font-weight: 600;
    line-height: 28px;
    text-align: center;
  }
  .face img {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
  .msg {
    max-width: 85%;
    padding: 8px 12px;
    border-radius: var(--chat-radius);
    overflow-wrap: anywhere;
  }
  .text {
    display: block;
    white-space: pre-wrap;
  }
  .msg.bot {
    background: var(--chat-bot-bg);
  }
  .msg.user {
    background: var(--chat-accent);
    color: var(--chat-accent-text);
  }
  .user a {
    color: inherit;
  }
  .msg.msg-carousel {
    max-width: 100%;
    width: 100%;
    box-sizing: border-box;
    padding: 0;
    background: none;
  }
  .msg.msg-notice {
    max-width: none;
    background: var(--chat-notice-bg);
    color: var(--chat-notice-text);
    text-align: center;
  }
  .time {
    padding: 0 4px;
    color: var(--chat-muted);
    font-size: 11px;
  }
  .pending {
    opacity: 0.6;
  }
  .failed {
    outline: 2px solid var(--chat-error);
  }
  code {
    font-family: ui-monospace, monospace;
    font-size: 0.92em;
    padding: 0 3px;
    border-radius: 4px;
    background: var(--chat-code-bg);
  }
  img.image,
  img.card-image {
    display: block;
    max-width: 100%;
    border-radius: 8px;
  }
  .buttons {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin-top: 8px;
  }
  .button,
  .quick-reply {
    display: inline-block;
    padding: 6px 12px;
    border: 1px solid var(--chat-accent);
    border-radius: 999px;
    background: var(--chat-bg);
    color: var(--chat-accent);
    text-decoration: none;
    font-size: 13px;
  }
  .quick-replies {
    display: flex;
    gap: 6px;
    padding: 4px 12px 8px;
    overflow-x: auto;
    overscroll-behavior-x: contain;
    scrollbar-width: thin;
  }
  .quick-reply {
    flex: none;
    white-space: nowrap;
  }
  .cards {
    display: flex;
    gap: 8px;
    overflow-x: auto;
    scroll-snap-type: x mandatory;
    overscroll-behavior-x: contain;
    padding-bottom: 4px;
  }
  .card {
    flex: 0 0 78%;
    scroll-snap-align: start;
    padding: 8px;
    border: 1px solid var(--chat-border);
    border-radius: var(--chat-radius);
    background: var(--chat-bg);
  }
  .card-title {
    font-weight: 600;
    margin-top: 6px;
  }
  .card-subtitle {
    color: var(--chat-muted);
    font-size: 13px;
  }
  .carousel-nav {
    display: flex;
    justify-content: flex-end;
    gap: 6px;
    margin-top: 4px;
  }
  .nav {
    width: 32px;
    height: 32px;
    border: 1px solid var(--chat-border);
    border-radius: 50%;
    background: var(--chat-bg);
    color: var(--chat-text);
  }
  :host(:dir(rtl)) .nav {
    transform: scaleX(-1);
  }
  .note {
    padding: 0 12px 6px;
    font-size: 12px;
    color: var(--chat-muted);
  }
  .error {
    color: var(--chat-error);
  }
  .error:empty {
    display: none;
  }
  .dots {
    display: inline-flex;
    gap: 3px;
    margin-inline-end: 6px;
  }
  .dots i {
    width: 6px;
    height: 6px;
    border-radius: 50%;
    background: currentColor;
    animation: blink 1.2s infinite both;
  }
  .dots i:nth-child(2) {
    animation-delay: 0.2s;
  }
  .dots i:nth-child(3) {
    animation-delay: 0.4s;
  }
  @keyframes blink {
    50% {
      opacity: 0.2;
    }
  }
  form {
    display: flex;
    gap: 8px;
    padding: 10px;
    border-top: 1px solid var(--chat-divider);
  }
  input {
    flex: 1;
    min-width: 0;
    padding: 8px 10px;
    border: 1px solid var(--chat-input-border);
    border-radius: 8px;
    font: inherit;
    font-size: max(16px, 1em);
    color: inherit;
    background: var(--chat-bg);
  }
  .send {
    padding: 8px 14px;
    border: 0;
    border-radius: 8px;
    background: var(--chat-accent);
    color: var(--chat-accent-text);
  }
  :focus-visible {
    outline: 2px solid var(--chat-accent);
    outline-offset: 2px;
  }
  .header :focus-visible {
    outline-color: var(--chat-accent-text);
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  /* Phones: the panel takes the whole screen, and its header button closes it. */
  @media (max-width: 479.98px) {
    :host([open]) {
      inset: 0;
    }
    :host([open]) .panel {
      position: fixed;
      inset: 0;
      width: 100vw;
      height: 100dvh;
      margin: 0;
      border-radius: 0;
      box-sizing: border-box;
      padding: 0 env(safe-area-inset-right, 0px) env(safe-area-inset-bottom, 0px) env(safe-area-inset-left, 0px);
    }
    :host([open]) .header {
      padding-top: calc(8px + env(safe-area-inset-top, 0px));
    }
    :host([open]) .header,
    :host([open]) form {
      touch-action: none;
    }
    :host([open]) .launcher {
      display: none;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    *,
    .panel,
    .launcher {
      animation: none !important;
      transition: none !important;
      scroll-behavior: auto !important;
    }
  }
`;
