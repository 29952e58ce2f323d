import { LitElement, css, html, unsafeCSS, type PropertyValues } from 'lit';
import type uPlot from 'uplot';
import { shared } from '../app/styles.ts';
import { language } from '../i18n/catalogue.ts';
import { t } from '../i18n/strings.ts';
import { barPlot, barPlotStyles, SERIES_COLOURS as COLOURS } from './bar-plot.ts';
import { bound } from '../app/reactive.ts';

export interface ChartSeries {
  readonly label: string;
  readonly values: readonly number[];
}

let charts = 0;

/**
 * One chart and, beside it, the same figures as a table: the table is what a screen reader reads
 * and what copies into a spreadsheet. `kind`: `time` for one point a day (labels are YYYY-MM-DD),
 * drawn with uPlot (its canvas hidden from assistive technology); `bars` for categories, drawn as
 * SVG with the bars of a category side by side, patterns and figures on the bars (bar-plot.ts).
 */
export class InsightsChart extends LitElement {
  static override styles = [
    shared,
    barPlotStyles,
    css`
      :host {
        display: block;
        margin: 0 0 1.5rem;
      }
      figure {
        margin: 0;
        display: grid;
        grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
        gap: 1rem;
        align-items: start;
      }
      @media (max-width: 60rem) {
        figure {
          grid-template-columns: minmax(0, 1fr);
        }
      }
      figcaption {
        grid-column: 1 / -1;
        font-weight: 700;
        font-size: 1.1rem;
      }
      .plot {
        min-height: 220px;
      }
      .key {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1rem;
        list-style: none;
        margin: 0.25rem 0 0;
        padding: 0;
        font-size: 0.9rem;
      }
      .key li::before {
        content: '';
        display: inline-block;
        width: 0.8rem;
        height: 0.8rem;
        margin-right: 0.35rem;
        vertical-align: -0.1rem;
        background: var(--swatch);
      }
      .key li:nth-child(1) {
        --swatch: ${unsafeCSS(COLOURS[0])};
      }
      .key li:nth-child(2) {
        --swatch: ${unsafeCSS(COLOURS[1])};
      }
      .key li:nth-child(3) {
        --swatch: ${unsafeCSS(COLOURS[2])};
      }
      .key li:nth-child(4) {
        --swatch: ${unsafeCSS(COLOURS[3])};
      }
      tbody th {
        white-space: nowrap;
      }
      td.n,
      th.n {
        text-align: right;
        font-variant-numeric: tabular-nums;
      }
      .table-wrap {
        max-height: 22rem;
        overflow: auto;
      }
      /* What uPlot's own stylesheet does for layout, here so the chart lives in this shadow root under the strict CSP. */
      .uplot,
      .uplot * {
        box-sizing: border-box;
      }
      .uplot {
        font-size: 12px;
        line-height: 1.5;
        width: min-content;
      }
      .u-wrap {
        position: relative;
        user-select: none;
      }
      .u-over,
      .u-under {
        position: absolute;
      }
      .uplot canvas {
        display: block;
        position: relative;
        width: 100%;
        height: 100%;
      }
      .u-axis {
        position: absolute;
      }
      .u-select {
        background: rgba(0, 0, 0, 0.07);
        position: absolute;
        pointer-events: none;
      }
      .u-cursor-x,
      .u-cursor-y {
        position: absolute;
        left: 0;
        top: 0;
        pointer-events: none;
        will-change: transform;
      }
      .u-cursor-x {
        height: 100%;
        border-right: 1px dashed #607d8b;
      }
      .u-cursor-y {
        width: 100%;
        border-bottom: 1px dashed #607d8b;
      }
      .u-cursor-pt {
        position: absolute;
        top: 0;
        left: 0;
        border-radius: 50%;
        border: 0 solid;
        pointer-events: none;
        will-change: transform;
      }
      .u-hz .u-cursor-x,
      .u-off {
        display: none;
      }
    `,
  ];
  static override properties = {
    title: {},
    kind: {},
    ...bound('labels', 'series'),
    labelHeader: {},
  };
  declare title: string;
  declare kind: 'time' | 'bars';
  declare labels: readonly string[];
  declare series: readonly ChartSeries[];
  /** The table's first column: what a row is (a day, a dialog, …). */
  declare labelHeader: string;
  private plot: uPlot | undefined;
  private draws = 0;
  /** Keeps this chart's pattern ids apart from the other charts' on the page. */
  private readonly chartId = `chart-${++charts}`;

  constructor() {
    super();
    this.title = '';
    this.kind = 'time';
    this.labels = [];
    this.series = [];
    this.labelHeader = '';
  }

  override disconnectedCallback(): void {
    this.plot?.destroy();
    this.plot = undefined;
    super.disconnectedCallback();
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('labels') || changed.has('series') || changed.has('kind')) void this.draw();
  }

  /** Draws the time chart; uPlot's code loads with the first one (the bar charts are SVG of our own). */
  private async draw(): Promise<void> {
    this.plot?.destroy();
    this.plot = undefined;
    if (this.kind !== 'time' || this.labels.length === 0) return;
    const run = ++this.draws;
    const { default: UPlot } = await import('uplot');
    // A newer draw (new figures while the code loaded) draws instead.
    if (run !== this.draws || !this.isConnected) return;
    const target = this.renderRoot.querySelector<HTMLElement>('.plot');
    if (!target || this.labels.length === 0 || this.kind !== 'time') return;
    const x = this.labels.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const labels = this.labels;
    const day = new Intl.DateTimeFormat(language(), { day: 'numeric', month: 'numeric', timeZone: 'UTC' });
    const options: uPlot.Options = {
      width: Math.max(280, Math.min(720, target.clientWidth || 560)),
      height: 220,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
      axes: [
        // Days as the studio's language writes its other dates ("3.11." in German); uPlot alone writes them in US order.
        { space: 60, values: (_u, splits) => splits.map((seconds) => day.format(seconds * 1000)) },
        { values: (_u, splits) => splits.map((n) => (Number.isInteger(n) ? String(n) : '')) },
      ],
      series: [
        {},
        ...this.series.map((s, i) => ({
          label: s.label,
          stroke: COLOURS[i % COLOURS.length],
          width: 2,
          points: { show: labels.length <= 31 },
        })),
      ],
    };
    this.plot = new UPlot(options, [x, ...this.series.map((s) => [...s.values])] as uPlot.AlignedData, target);
  }

  override render() {
    return html`<figure>
      <figcaption>${this.title}</figcaption>
      ${
        this.kind === 'bars'
          ? html`<div>${barPlot(this.chartId, t('chartBars', { title: this.title }), this.labels, this.series)}</div>`
          : html`<div>
            <div class="plot" aria-hidden="true"></div>
            ${this.series.length > 1 ? html`<ul class="key" aria-hidden="true">${this.series.map((s) => html`<li>${s.label}</li>`)}</ul>` : ''}
          </div>`
      }
      <!-- A long table scrolls: focusable, so a keyboard can scroll it too. -->
      <div class="table-wrap" tabindex="0" role="group" aria-label=${this.title}>
        <table aria-label=${t('chartTable', { title: this.title })}>
          <thead>
            <tr>
              <th scope="col">${this.labelHeader}</th>
              ${this.series.map((s) => html`<th scope="col" class="n">${s.label}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${this.labels.map(
              (label, row) => html`<tr>
                <th scope="row">${label}</th>
                ${this.series.map((s) => html`<td class="n">${s.values[row] ?? 0}</td>`)}
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </figure>`;
  }
}

customElements.define('insights-chart', InsightsChart);

declare global {
  interface HTMLElementTagNameMap {
    'insights-chart': InsightsChart;
  }
}
