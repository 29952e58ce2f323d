import { html, type TemplateResult } from 'lit';

/** A button's short visible sign with its full name for assistive technology. */
export function short(sign: string, name: string): TemplateResult {
  return html`<span aria-hidden="true">${sign}</span><span class="visually-hidden">${name}</span>`;
}
