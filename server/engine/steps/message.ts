import type { Button, Card, QuickReply } from '../../../shared/protocol.ts';
import type { DefinitionButton } from '../../definition/common.ts';
import type { StepOf } from '../../definition/schema.ts';
import { readPath } from '../turn/template.ts';
import type { StepHandler, TurnContext } from '../turn/types.ts';

/** Says a text (with buttons and quick replies), an image and/or a carousel, in that order. */
export const messageStep: StepHandler<StepOf<'message'>> = {
  enter(step, ctx) {
    if (step.text !== undefined) {
      ctx.outputs.push({
        type: 'text',
        text: ctx.render(step.text, { markdown: true }),
        ...(step.buttons ? { buttons: renderButtons(ctx, step.buttons) } : {}),
        ...(step.quickReplies ? { quickReplies: renderQuickReplies(step.quickReplies) } : {}),
      });
    }
    if (step.image) ctx.outputs.push({ type: 'image', url: ctx.render(step.image.url), alt: step.image.alt });
    if (step.cards) {
      ctx.outputs.push({
        type: 'carousel',
        cards: step.cards.map((card) => ({
          title: ctx.render(card.title),
          ...(card.subtitle !== undefined ? { subtitle: ctx.render(card.subtitle) } : {}),
          ...(card.imageUrl !== undefined ? { imageUrl: ctx.render(card.imageUrl) } : {}),
          ...(card.imageAlt !== undefined ? { imageAlt: card.imageAlt } : {}),
          ...(card.buttons ? { buttons: renderButtons(ctx, card.buttons) } : {}),
        })),
      });
    }
    if (step.cardsFrom !== undefined) {
      const cards = cardsFromValue(readPath([ctx.variables, ctx.userData], step.cardsFrom));
      if (cards.length > 0) ctx.outputs.push({ type: 'carousel', cards });
      else if (step.noCardsText !== undefined)
        ctx.outputs.push({ type: 'text', text: ctx.render(step.noCardsText, { markdown: true }) });
    }
    return { kind: 'advance', to: step.next };
  },
};

const MAX_CARDS = 10;

/**
 * Cards from a variable (an integration's output): what is not a card is left out,
 * so an odd answer shows fewer cards instead of a broken carousel. Buttons must
 * already be protocol buttons (postback, url, dialog).
 */
export function cardsFromValue(value: unknown): Card[] {
  if (!Array.isArray(value)) return [];
  const cards: Card[] = [];
  for (const item of value) {
    if (cards.length >= MAX_CARDS) break;
    if (!item || typeof item !== 'object') continue;
    const raw = item as Record<string, unknown>;
    const title = text(raw.title, 200);
    if (title === undefined) continue;
    const subtitle = text(raw.subtitle, 500);
    const imageUrl = text(raw.imageUrl, 2000);
    const imageAlt = text(raw.imageAlt, 300);
    const buttons = Array.isArray(raw.buttons) ? raw.buttons.filter(isButton).slice(0, 5) : [];
    cards.push({
      title,
      ...(subtitle !== undefined ? { subtitle } : {}),
      ...(imageUrl !== undefined && /^(https?:\/\/|\/)/i.test(imageUrl) ? { imageUrl } : {}),
      ...(imageAlt !== undefined ? { imageAlt } : {}),
      ...(buttons.length > 0 ? { buttons } : {}),
    });
  }
  return cards;
}

function text(value: unknown, max: number): string | undefined {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

function isButton(value: unknown): value is Button {
  if (!value || typeof value !== 'object') return false;
  const b = value as Record<string, unknown>;
  if (typeof b.label !== 'string' || b.label === '' || b.label.length > 100) return false;
  if (b.kind === 'postback') return typeof b.payload === 'string' && b.payload !== '' && b.payload.length <= 1000;
  if (b.kind === 'url') return typeof b.url === 'string' && /^https?:\/\//i.test(b.url);
  if (b.kind === 'dialog') return typeof b.dialogId === 'string' && b.dialogId !== '';
  return false;
}

/** URL buttons carry the rendered target here; the caller swaps in the tracked link before anything is stored. */
export function renderButtons(ctx: TurnContext, buttons: readonly DefinitionButton[]): Button[] {
  return buttons.map((b) => {
    switch (b.kind) {
      case 'postback':
        return { kind: 'postback', label: b.label, payload: b.payload };
      case 'url':
        return { kind: 'url', label: b.label, url: ctx.render(b.url) };
      case 'dialog':
        return { kind: 'dialog', label: b.label, dialogId: b.dialog };
    }
  });
}

export function renderQuickReplies(replies: readonly { label: string; payload: string }[]): QuickReply[] {
  return replies.map((r) => ({ label: r.label, payload: r.payload }));
}
