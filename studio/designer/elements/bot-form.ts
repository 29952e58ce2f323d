import { css, html, nothing } from 'lit';
import { DesignerPart } from './designer-part.ts';
import { format } from '../../i18n/catalogue.ts';
import { formatPath, setAt } from '../model/paths.ts';
import type { PlacedProblem } from '../model/problems.ts';
import { botFields } from '../model/schema-form.ts';
import { namesAt } from '../model/variables.ts';
import type { StepDoc } from '../model/types.ts';
import { labelFor, type FormContext } from './form-context.ts';
import { formStyles } from './form-styles.ts';
import { renderField } from './form-widgets.ts';
import { base } from './styles.ts';
import { bound } from '../../app/reactive.ts';

/**
 * The bot as a whole: its settings, user-data fields, intents, FAQ pairs and page events, as
 * forms made from the editor schema like a step's. Problems outside the dialogs show here.
 */
export class BotForm extends DesignerPart {
  static override styles = [
    base,
    formStyles,
    css`
      h2 {
        margin-bottom: 8px;
      }
    `,
  ];

  static override properties = bound('problems');

  declare problems: readonly PlacedProblem[];

  constructor() {
    super();
    this.problems = [];
  }

  override render() {
    const schema = this.ui?.state.catalogue?.schema;
    if (!schema || !this.definition) return nothing;
    const t = this.ui.t;
    const label = (rel: readonly (string | number)[]) =>
      format(t.edited, {
        field: labelFor(t, String(rel.filter((p) => typeof p === 'string').at(-1) ?? '')),
        step: t.botSettings,
      });
    const context: FormContext = {
      ui: this.ui,
      t,
      definition: this.definition,
      dialog: -1,
      step: -1,
      stepDoc: this.definition as unknown as StepDoc,
      // Problems outside the dialogs carry their whole path as their field.
      problems: this.problems.filter((p) => !p.at),
      readOnly: this.readOnly,
      renderField,
      names: () => () => namesAt(this.ui.state.definition ?? this.definition, undefined),
      set: (rel, value) => this.ui.state.edit(label(rel), (d) => setAt(d, rel, value), formatPath(rel)),
      setMany: (changes) =>
        this.ui.state.edit(label(changes[0]?.[0] ?? []), (d) =>
          changes.reduce((acc, [rel, value]) => setAt(acc, rel, value), d),
        ),
      edit: (text, change) => this.ui.state.edit(text, (d) => change(d, (rel) => rel)),
    };
    return html`<h2>${t.botSettings}</h2>
      ${botFields(schema).map((spec) => renderField(context, spec, [spec.key]))}`;
  }
}

customElements.define('bot-form', BotForm);

declare global {
  interface HTMLElementTagNameMap {
    'bot-form': BotForm;
  }
}
