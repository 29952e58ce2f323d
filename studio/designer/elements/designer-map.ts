import { css, html, nothing, svg } from 'lit';
import { DesignerPart } from './designer-part.ts';
import {
  Position,
  XYPanZoom,
  PanOnScrollMode,
  getBezierPath,
  type PanZoomInstance,
  type Viewport,
} from '@xyflow/system';
import { format, plural } from '../../i18n/catalogue.ts';
import { layoutMap, HEADER_HEIGHT, NODE_WIDTH, ROW_HEIGHT, type MapLayout } from '../model/map-layout.ts';
import type { PlacedProblem } from '../model/problems.ts';
import type { DefinitionDoc } from '../model/types.ts';
import type { DesignerUi } from '../state/designer-ui.ts';
import { short } from './short-label.ts';
import { place } from './place.ts';
import { base } from './styles.ts';
import { bound, states } from '../../app/reactive.ts';

/** Below this, a row's text is too small to read: a larger map starts here instead of fitting. */
const READABLE_ZOOM = 0.7;
/**
 * The map opens fitted, whole, down to this zoom (text about 40 % of its size: boxes, arrows and
 * dialog names still tell the shape apart); only a map larger than that opens at READABLE_ZOOM
 * on the start dialog instead.
 */
const OPENS_FITTED_DOWN_TO = 0.4;

/**
 * The map: dialogs as boxes of their steps, jumps and branches as arrows, laid out automatically.
 * Pan and zoom come from @xyflow/system (the core of React Flow and Svelte Flow, no framework);
 * the keyboard layer is the studio's own: one step is in the tab order at a time; Up/Down walk
 * the steps, Right follows a step's jump, Left goes back to a step that jumps here, Enter opens
 * the step in the outline, + and - zoom, 0 fits the map. Problems and, when set, figures per
 * step (reach, drop-off) show on the rows.
 */
export class DesignerMap extends DesignerPart {
  static override styles = [
    base,
    css`
      :host {
        display: block;
      }
      .tools {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
        align-items: center;
        margin-bottom: 6px;
      }
      .pane {
        position: relative;
        overflow: hidden;
        height: min(70vh, 720px);
        min-height: 320px;
        border: 1px solid var(--line);
        border-radius: var(--radius);
        background: #fafbfc;
        cursor: grab;
      }
      .viewport {
        position: absolute;
        top: 0;
        left: 0;
        transform-origin: 0 0;
      }
      svg.edges {
        position: absolute;
        top: 0;
        left: 0;
        overflow: visible;
        pointer-events: none;
      }
      .edge {
        fill: none;
        stroke: #6b7785;
        stroke-width: 1.5;
      }
      .edge.error,
      .edge.noMatch,
      .edge.retries {
        stroke: #b35c00;
        stroke-dasharray: 5 4;
      }
      .edge.active {
        stroke: var(--accent);
        stroke-width: 3;
      }
      .node {
        position: absolute;
        top: 0;
        left: 0;
        width: ${NODE_WIDTH}px;
        background: var(--paper);
        border: 1px solid #8a96a3;
        border-radius: var(--radius);
        box-shadow: 0 1px 3px rgb(0 0 0 / 10%);
        cursor: default;
      }
      .node h3 {
        height: ${HEADER_HEIGHT}px;
        margin: 0;
        padding: 0 10px;
        display: flex;
        align-items: center;
        justify-content: space-between;
        font-size: 0.95em;
        font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
        background: #e8edf2;
        border-bottom: 1px solid #c5ccd3;
        border-radius: var(--radius) var(--radius) 0 0;
        overflow: hidden;
        white-space: nowrap;
      }
      .node ul {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      .node li {
        height: ${ROW_HEIGHT}px;
      }
      .node button {
        width: 100%;
        height: ${ROW_HEIGHT}px;
        min-height: 0;
        display: flex;
        gap: 6px;
        align-items: center;
        padding: 0 8px;
        border: none;
        border-radius: 0;
        background: none;
        text-align: start;
        font-size: 0.85em;
        white-space: nowrap;
        overflow: hidden;
      }
      .node button:focus-visible {
        outline-offset: -3px;
      }
      .node button.current {
        background: #dcebff;
      }
      .node .kind {
        color: var(--muted);
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      .node .id {
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      /*
       * A figure or problem count stays whole; the step's kind and id give way (ellipsis) instead, each
       * by its length, so a kind long in the studio's language ("Benutzerdaten löschen") never pushes
       * the row past its node.
       */
      .node .badge {
        margin-inline-start: auto;
        font-size: 0.75em;
        flex-shrink: 0;
        white-space: nowrap;
      }
    `,
  ];

  static override properties = {
    ...bound('byStep', 'current', 'figures'),
    ...states('active'),
  };

  /** The reach and drop-off figures (ui.figures), passed so the map draws them when they arrive after it. */
  declare figures: DesignerUi['figures'];

  /** A preview's position (ui.current), passed so the map draws again when it moves. */
  declare current: DesignerUi['current'];
  declare byStep: ReadonlyMap<string, PlacedProblem[]>;
  /** The step in the tab order, `dialog/step`. */
  declare private active: string;
  private layout: MapLayout | undefined;
  private laidOut: DefinitionDoc | undefined;
  private panZoom: PanZoomInstance | undefined;
  private viewport: Viewport = { x: 0, y: 0, zoom: 1 };
  /** When the map last finished drawing (for the benchmark). */
  drawnAt = 0;

  constructor() {
    super();
    this.byStep = new Map();
    this.active = '0/0';
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.panZoom?.destroy();
    this.panZoom = undefined;
  }

  override render() {
    if (!this.definition) return nothing;
    if (this.laidOut !== this.definition) {
      this.layout = layoutMap(this.definition);
      this.laidOut = this.definition;
    }
    const layout = this.layout!;
    const t = this.ui.t;
    const [activeDialog, activeStep] = this.active.split('/').map(Number) as [number, number];
    return html`
      <div class="tools">
        <button type="button" @click=${() => this.zoomBy(1.25)}>${short('+', t.zoomIn)}</button>
        <button type="button" @click=${() => this.zoomBy(0.8)}>${short('−', t.zoomOut)}</button>
        <button type="button" @click=${() => void this.fit(true)}>${t.fitView}</button>
        <p class="help" id="map-help">${t.mapHelp}</p>
      </div>
      <div class="pane" role="group" aria-label=${t.mapLabel} aria-describedby="map-help" @keydown=${this.onKey}>
        <div class="viewport">
          <svg class="edges" width=${Math.max(1, layout.width)} height=${Math.max(1, layout.height)} aria-hidden="true">
            <defs>
              <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M 0 0 L 10 5 L 0 10 z" fill="#6b7785"></path>
              </marker>
            </defs>
            ${layout.edges.map((edge) => {
              const path = edge.inner
                ? `M ${edge.sx} ${edge.sy} C ${edge.sx + 40} ${edge.sy}, ${edge.tx + 40} ${edge.ty}, ${edge.tx + 2} ${edge.ty}`
                : getBezierPath({
                    sourceX: edge.sx,
                    sourceY: edge.sy,
                    sourcePosition: Position.Right,
                    targetX: edge.tx - 2,
                    targetY: edge.ty,
                    targetPosition: Position.Left,
                  })[0];
              const on = edge.from.dialog === activeDialog && edge.from.step === activeStep;
              return svg`<path class="edge ${edge.role} ${on ? 'active' : ''}" d=${path} marker-end="url(#arrow)"></path>`;
            })}
          </svg>
          ${layout.nodes.map((node) => this.renderNode(node.dialog, node.x, node.y))}
        </div>
      </div>
    `;
  }

  private renderNode(d: number, x: number, y: number) {
    const dialog = this.definition.dialogs[d]!;
    const t = this.ui.t;
    const headingId = `map-d${d}`;
    const errors = [...this.byStep]
      .filter(([key]) => key.startsWith(`${d}/`))
      .reduce((n, [, list]) => n + list.filter((p) => p.severity !== 'warning').length, 0);
    return html`<section class="node" aria-labelledby=${headingId} ${place({ transform: `translate(${x}px, ${y}px)` })}>
      <h3 id=${headingId}><span>${dialog.id}</span>${errors > 0 ? html`<span class="badge error">${plural(t.stepProblems, errors, this.ui.locale)}</span>` : nothing}</h3>
      <ul aria-labelledby=${headingId}>
        ${dialog.steps.map((step, s) => {
          const key = `${d}/${s}`;
          const problems = this.byStep.get(key) ?? [];
          const leads = this.layout!.edges.filter((e) => e.from.dialog === d && e.from.step === s && e.to).map(
            (e) =>
              `${this.definition.dialogs[e.to!.dialog]?.id} / ${this.definition.dialogs[e.to!.dialog]?.steps[e.to!.step]?.id}`,
          );
          const current = this.ui.current?.dialog === dialog.id && this.ui.current.step === step.id;
          const figure = this.figures?.get(`${dialog.id}/${step.id}`);
          return html`<li>
            <button
              type="button"
              class=${current ? 'current' : ''}
              aria-current=${current ? 'step' : nothing}
              data-key=${key}
              tabindex=${key === this.active ? '0' : '-1'}
              @click=${() => this.ui.openStep(d, s)}
              @focus=${() => this.onFocusRow(key)}
            >
              <span class="kind">${this.ui.kindName(step.type)}</span>
              <span class="id">${step.id}</span>
              ${problems.length > 0 ? html`<span class="badge ${problems.some((p) => p.severity !== 'warning') ? 'error' : 'warning'}">${problems.length}<span class="visually-hidden"> ${plural(t.stepProblems, problems.length, this.ui.locale)}</span></span>` : nothing}
              ${figure ? html`<span class="badge">${figure.text}</span>` : nothing}
              ${leads.length > 0 ? html`<span class="visually-hidden">, ${format(t.mapLeadsTo, { targets: [...new Set(leads)].join(', ') })}</span>` : nothing}
            </button>
          </li>`;
        })}
      </ul>
    </section>`;
  }

  override firstUpdated(): void {
    const pane = this.renderRoot.querySelector<HTMLElement>('.pane');
    if (!pane) return;
    this.panZoom = XYPanZoom({
      domNode: pane,
      minZoom: 0.1,
      maxZoom: 2,
      translateExtent: [
        [-Infinity, -Infinity],
        [Infinity, Infinity],
      ],
      viewport: this.viewport,
      onDraggingChange: () => undefined,
      onPanZoom: (_event, viewport) => this.apply(viewport),
    });
    this.panZoom.update({
      noWheelClassName: 'nowheel',
      noPanClassName: 'nopan-none',
      preventScrolling: true,
      panOnScroll: false,
      panOnDrag: true,
      panOnScrollMode: PanOnScrollMode.Free,
      panOnScrollSpeed: 0.5,
      userSelectionActive: false,
      zoomOnPinch: true,
      zoomOnScroll: true,
      zoomOnDoubleClick: false,
      zoomActivationKeyPressed: false,
      lib: 'studio',
      onTransformChange: ([x, y, zoom]) => this.apply({ x, y, zoom }),
      connectionInProgress: false,
      paneClickDistance: 4,
    });
    void this.fit().then(() => {
      this.drawnAt = performance.now();
      this.dispatchEvent(new CustomEvent('map-drawn', { bubbles: true, composed: true }));
    });
  }

  /**
   * Makes a step the map's current one (e.g. the one open in the outline when the map opens), the
   * one Tab reaches first; with `moveFocus`, focus goes to it too.
   */
  focusStep(dialog: number, step: number, moveFocus = true): void {
    this.active = `${dialog}/${step}`;
    if (moveFocus)
      void this.updateComplete.then(() =>
        this.renderRoot.querySelector<HTMLElement>(`[data-key="${this.active}"]`)?.focus(),
      );
  }

  private apply(viewport: Viewport): void {
    this.viewport = viewport;
    const element = this.renderRoot.querySelector<HTMLElement>('.viewport');
    element?.style.setProperty('transform', `translate(${viewport.x}px, ${viewport.y}px) scale(${viewport.zoom})`);
  }

  /**
   * Shows the whole map, as "Fit map" does, unless it would be too small to tell apart; so large a
   * map starts at a readable size with the start dialog in view (pan, zoom out or press 0 for the rest).
   */
  private async fit(whole = false): Promise<void> {
    const pane = this.renderRoot.querySelector<HTMLElement>('.pane');
    const layout = this.layout;
    if (!pane || !layout || !this.panZoom) return;
    const width = pane.clientWidth;
    const height = pane.clientHeight;
    const fits = Math.min(1, (width - 20) / Math.max(1, layout.width), (height - 20) / Math.max(1, layout.height));
    if (whole || fits >= OPENS_FITTED_DOWN_TO) {
      const zoom = Math.max(0.1, fits);
      await this.panZoom.setViewport({
        x: (width - layout.width * zoom) / 2,
        y: Math.max(10, (height - layout.height * zoom) / 2),
        zoom,
      });
      return;
    }
    const start = layout.nodes.find((node) => node.id === this.definition.settings?.startDialog) ?? layout.nodes[0];
    if (!start) return;
    const zoom = READABLE_ZOOM;
    const x = 20 - start.x * zoom;
    // The top of the dialogs in view from the left edge, not an empty band above them (the layout's other
    // columns may reach higher); centred on the start dialog only when it would otherwise be below the pane.
    const top = Math.min(
      ...layout.nodes.filter((node) => node === start || node.x * zoom + x < width).map((node) => node.y),
    );
    const fromTop = 20 - top * zoom;
    const centred = height / 2 - (start.y + start.height / 2) * zoom;
    await this.panZoom.setViewport({
      zoom,
      x,
      y: (start.y + start.height) * zoom + fromTop <= height - 20 ? fromTop : centred,
    });
  }

  private zoomBy(factor: number): void {
    void this.panZoom?.scaleBy(factor);
  }

  /** Keeps the focused row in sight. */
  private onFocusRow(key: string): void {
    this.active = key;
    const [d, s] = key.split('/').map(Number) as [number, number];
    const node = this.layout?.nodes[d];
    const pane = this.renderRoot.querySelector<HTMLElement>('.pane');
    if (!node || !pane || !this.panZoom) return;
    const { x, y, zoom } = this.viewport;
    const rowX = node.x * zoom + x;
    const rowY = (node.y + HEADER_HEIGHT + s * ROW_HEIGHT) * zoom + y;
    const inside =
      rowX >= 0 &&
      rowX + NODE_WIDTH * zoom <= pane.clientWidth &&
      rowY >= 0 &&
      rowY + ROW_HEIGHT * zoom <= pane.clientHeight;
    if (!inside)
      void this.panZoom.setViewport({
        zoom,
        x: pane.clientWidth / 2 - (node.x + NODE_WIDTH / 2) * zoom,
        y: pane.clientHeight / 2 - (node.y + HEADER_HEIGHT + s * ROW_HEIGHT) * zoom,
      });
  }

  private onKey = (event: KeyboardEvent) => {
    const target = event.composedPath()[0] as HTMLElement | undefined;
    const key = target?.dataset?.key;
    if (event.key === '+' || event.key === '=') return this.handled(event, () => this.zoomBy(1.25));
    if (event.key === '-') return this.handled(event, () => this.zoomBy(0.8));
    if (event.key === '0') return this.handled(event, () => void this.fit(true));
    if (key === undefined) return;
    const [d, s] = key.split('/').map(Number) as [number, number];
    const dialogs = this.definition.dialogs;
    const go = (dialog: number, step: number) => this.focusStep(dialog, step);
    switch (event.key) {
      case 'ArrowDown':
        return this.handled(event, () =>
          s + 1 < dialogs[d]!.steps.length ? go(d, s + 1) : d + 1 < dialogs.length ? go(d + 1, 0) : undefined,
        );
      case 'ArrowUp':
        return this.handled(event, () =>
          s > 0 ? go(d, s - 1) : d > 0 ? go(d - 1, dialogs[d - 1]!.steps.length - 1) : undefined,
        );
      case 'ArrowRight': {
        const out = this.layout?.edges.find((e) => e.from.dialog === d && e.from.step === s && e.to);
        return this.handled(event, () => out?.to && go(out.to.dialog, out.to.step));
      }
      case 'ArrowLeft': {
        const back = this.layout?.edges.find((e) => e.to?.dialog === d && e.to.step === s);
        return this.handled(event, () => back && go(back.from.dialog, back.from.step));
      }
      case 'Enter':
      case ' ':
        return this.handled(event, () => this.ui.openStep(d, s));
      default:
        return undefined;
    }
  };

  private handled(event: KeyboardEvent, action: () => unknown): void {
    event.preventDefault();
    action();
  }
}

customElements.define('designer-map', DesignerMap);

declare global {
  interface HTMLElementTagNameMap {
    'designer-map': DesignerMap;
  }
}
