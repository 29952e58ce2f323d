import { css } from 'lit';

/**
 * Minimal look for `<chat-widget>`. Hosts restyle through the custom properties
 * below or the exposed parts (launcher, panel, log, input, send).
 */
export const chatWidgetStyles = css`
  :host {
    --chat-accent: #2563eb;
    --chat-accent-text: #fff;
    --chat-bg: #fff;
    --chat-text: #111827;
    --chat-bot-bg: #f3f4f6;
    --chat-radius: 12px;
    --chat-font: system-ui, sans-serif;
    position: fixed;
    right: 20px;
    bottom: 20px;
    z-index: 2147483000;
    font: 14px/1.4 var(--chat-font);
    color: var(--chat-text);
  }
  [hidden] {
    display: none !important;
  }
  .launcher {
    width: 56px;
    height: 56px;
    border: 0;
    border-radius: 50%;
    background: var(--chat-accent);
    color: var(--chat-accent-text);
    cursor: pointer;
    box-shadow: 0 4px 12px rgb(0 0 0 / 0.2);
    float: right;
  }
  .launcher svg {
    width: 26px;
    height: 26px;
    fill: currentColor;
  }
  .panel {
    display: flex;
    flex-direction: column;
    width: min(360px, calc(100vw - 40px));
    height: min(520px, calc(100vh - 110px));
    margin-bottom: 12px;
    background: var(--chat-bg);
    border-radius: var(--chat-radius);
    box-shadow: 0 8px 30px rgb(0 0 0 / 0.2);
    overflow: hidden;
  }
  .log {
    flex: 1;
    overflow-y: auto;
    padding: 12px;
    display: flex;
    flex-direction: column;
    gap: 6px;
  }
  .msg {
    max-width: 80%;
    padding: 8px 12px;
    border-radius: var(--chat-radius);
    overflow-wrap: anywhere;
  }
  .text {
    white-space: pre-wrap;
  }
  .bot {
    align-self: flex-start;
    background: var(--chat-bot-bg);
  }
  .user {
    align-self: flex-end;
    background: var(--chat-accent);
    color: var(--chat-accent-text);
  }
  .pending {
    opacity: 0.6;
  }
  .failed {
    outline: 2px solid #dc2626;
  }
  .note {
    padding: 0 12px 6px;
    font-size: 12px;
    color: #4b5563;
  }
  .error {
    color: #b91c1c;
  }
  form {
    display: flex;
    gap: 8px;
    padding: 10px;
    border-top: 1px solid #e5e7eb;
  }
  input {
    flex: 1;
    min-width: 0;
    padding: 8px 10px;
    border: 1px solid #d1d5db;
    border-radius: 8px;
    font: inherit;
  }
  .send {
    padding: 8px 14px;
    border: 0;
    border-radius: 8px;
    background: var(--chat-accent);
    color: var(--chat-accent-text);
    font: inherit;
    cursor: pointer;
  }
  :focus-visible {
    outline: 2px solid var(--chat-accent);
    outline-offset: 2px;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;
