import { LitElement, type PropertyDeclarations } from 'lit';
import type { DefinitionDoc } from '../model/types.ts';
import type { DesignerUi } from '../state/designer-ui.ts';
import { bound } from '../../app/reactive.ts';

/** What the designer hands every part it draws: its state, the definition to show, and whether the person may change it. */
export class DesignerPart extends LitElement {
  static override properties: PropertyDeclarations = {
    ...bound('ui', 'definition'),
    readOnly: { type: Boolean },
  };

  declare ui: DesignerUi;
  declare definition: DefinitionDoc;
  declare readOnly: boolean;

  constructor() {
    super();
    this.readOnly = false;
  }
}
