import type { Button, QuickReply } from '../../../shared/protocol.ts';
import type { DefinitionButton } from '../../definition/common.ts';
import type { StepOf } from '../../definition/schema.ts';
import type { StepHandler, TurnContext } from '../types.ts';

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
    return { kind: 'advance', to: step.next };
  },
};

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
