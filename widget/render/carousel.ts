/**
 * The carousel, in a chunk of its own (render/lazy.ts): loaded the first time a bot sends cards.
 * Cards sit in a horizontal scroll-snap strip: touch swipes scroll natively, arrow keys and the
 * previous/next buttons move one card, and each card is a labelled group.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Card } from '../../shared/protocol.ts';
import { format } from '../i18n/strings.ts';
import { buttons, image } from './message-parts.ts';
import type { RenderContext } from './render-context.ts';

export function carousel(cards: readonly Card[], ctx: RenderContext): TemplateResult {
  const { strings } = ctx;
  const step = (event: Event, by: number) => {
    const strip = (event.currentTarget as HTMLElement).closest('.carousel')?.querySelector<HTMLElement>('.cards');
    if (!strip) return;
    const rtl = getComputedStyle(strip).direction === 'rtl' ? -1 : 1;
    strip.scrollBy({
      left: by * rtl * strip.clientWidth * 0.8,
      behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
    });
  };
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      const forward =
        (event.key === 'ArrowRight') !== (getComputedStyle(event.currentTarget as Element).direction === 'rtl');
      step(event, forward ? 1 : -1);
    }
  };
  return html`<div class="carousel" role="region" aria-roledescription="carousel" aria-label=${strings.carousel}>
    <div class="cards" part="carousel" tabindex="0" @keydown=${keys}>
      ${cards.map(
        (
          card,
          i,
        ) => html`<div class="card" part="card" role="group" aria-roledescription="slide" aria-label=${format(strings.cardOf, { n: i + 1, total: cards.length })}>
          ${card.imageUrl ? image(card.imageUrl, card.imageAlt ?? '', 'card-image', ctx) : nothing}
          <div class="card-title" dir="auto">${card.title}</div>
          ${card.subtitle ? html`<div class="card-subtitle" dir="auto">${card.subtitle}</div>` : nothing} ${buttons(card.buttons, ctx)}
        </div>`,
      )}
    </div>
    ${
      cards.length > 1
        ? html`<div class="carousel-nav">
          <button type="button" class="nav" aria-label=${strings.previous} @click=${(e: Event) => step(e, -1)}>‹</button>
          <button type="button" class="nav" aria-label=${strings.next} @click=${(e: Event) => step(e, 1)}>›</button>
        </div>`
        : nothing
    }
  </div>`;
}
