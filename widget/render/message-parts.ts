// The pieces a message and a carousel card share: pictures and buttons.
import { html, nothing, type TemplateResult } from 'lit';
import type { Button } from '../../shared/protocol.ts';
import type { RenderContext } from './render-context.ts';
import { safeUrl } from './safe-url.ts';

/** A picture that did not load takes no space rather than showing a broken-image icon. */
export const hideImage = (event: Event) => ((event.target as HTMLElement).hidden = event.type === 'error');

export function image(
  url: string,
  alt: string,
  className: string,
  ctx: RenderContext,
): TemplateResult | typeof nothing {
  const src = safeUrl(url, ctx.baseUrl);
  return src ? html`<img class=${className} src=${src} alt=${alt} loading="lazy" />` : nothing;
}

export function buttons(list: readonly Button[] | undefined, ctx: RenderContext): TemplateResult | typeof nothing {
  if (!list?.length) return nothing;
  return html`<div class="buttons">${list.map((b) => button(b, ctx))}</div>`;
}

function button(b: Button, ctx: RenderContext): TemplateResult | typeof nothing {
  if (b.kind === 'url') {
    // The server already swapped the target for its tracked link; we only refuse non-web schemes.
    const href = safeUrl(b.url, ctx.baseUrl);
    if (!href) return nothing;
    return html`<a class="button" part="button" dir="auto" href=${href} target="_blank" rel="noopener"
      >${b.label}<span class="sr-only"> ${ctx.strings.opensInNewTab}</span></a
    >`;
  }
  const action =
    b.kind === 'postback'
      ? ({ kind: 'postback', payload: b.payload } as const)
      : ({ kind: 'dialog', dialogId: b.dialogId } as const);
  return html`<button class="button" part="button" dir="auto" type="button" ?disabled=${ctx.disabled} @click=${() => ctx.press(b.label, action)}>
    ${b.label}
  </button>`;
}
