import { LitElement, css, html } from 'lit';

/**
 * The studio's shell: landmarks and the screen for the current address. Screens (sign-in,
 * versions, designer, insights, settings) are elements of their own, loaded by the shell.
 */
export class StudioApp extends LitElement {
  static override styles = css`
    :host {
      display: block;
      font: 16px/1.5 system-ui, sans-serif;
      color: #1b1f24;
    }
    main {
      padding: 1rem;
    }
  `;

  override render() {
    return html`<main><h1>Studio</h1></main>`;
  }
}

customElements.define('studio-app', StudioApp);

declare global {
  interface HTMLElementTagNameMap {
    'studio-app': StudioApp;
  }
}
