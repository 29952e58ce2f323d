import { noChange, nothing } from 'lit';
import { Directive, PartType, directive, type ElementPart, type PartInfo } from 'lit/directive.js';

/**
 * Positions an element through the CSS object model (`style.setProperty`), never a `style`
 * attribute: the studio's policy allows no inline styles, and Lit's own styleMap writes the
 * attribute on its first render.
 */
class PlaceDirective extends Directive {
  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.ELEMENT) throw new Error('place() goes on an element');
  }

  render(_properties: Readonly<Record<string, string>>) {
    return nothing;
  }

  override update(part: ElementPart, [properties]: [Readonly<Record<string, string>>]) {
    const style = (part.element as HTMLElement).style;
    for (const [name, value] of Object.entries(properties)) style.setProperty(name, value);
    return noChange;
  }
}

export const place = directive(PlaceDirective);
