import { css, svg, type SVGTemplateResult } from 'lit';

export interface BarSeries {
  readonly label: string;
  readonly values: readonly number[];
}

/**
 * Series colours, in order (contrast ≥ 4.5:1 on white). Colour is never the only cue: each series
 * also has its own fill pattern (solid, stripes, dots, cross-hatch), named in the key, and every
 * bar carries its figure, so the chart reads in high-contrast mode and for colour blindness.
 */
export const SERIES_COLOURS = ['#0b5cad', '#b3471b', '#2b7a4b', '#6b3fa0'];

const WIDTH = 600;
const HEIGHT = 260;
const LEFT = 44;
const RIGHT = 8;
const TOP = 40;
const BOTTOM = 34;

/** The pattern a series is filled with: drawn in the series' colour ("ink") on white ("paper"). */
function pattern(id: string, index: number): SVGTemplateResult {
  const colour = SERIES_COLOURS[index % SERIES_COLOURS.length]!;
  const shape = index % 4;
  return svg`<pattern id=${id} width="8" height="8" patternUnits="userSpaceOnUse">
    ${
      shape === 0
        ? svg`<rect class="ink" width="8" height="8" fill=${colour}></rect>`
        : svg`<rect class="paper" width="8" height="8" fill="#fff"></rect>
        ${shape === 1 ? svg`<path class="line" d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" stroke=${colour} stroke-width="2.5"></path>` : ''}
        ${shape === 2 ? svg`<circle class="ink" cx="4" cy="4" r="2.2" fill=${colour}></circle>` : ''}
        ${shape === 3 ? svg`<path class="line" d="M0,4 h8 M4,0 v8" stroke=${colour} stroke-width="2"></path>` : ''}`
    }
  </pattern>`;
}

/** A round top for the value axis (its half a round number too), so the tallest bar and its figure fit. */
function scaleTop(max: number): number {
  const wanted = Math.max(4, max * 1.1);
  const magnitude = 10 ** Math.floor(Math.log10(wanted));
  const nice = [1, 1.2, 1.6, 2, 3, 4, 5, 6, 8, 10].find((step) => step * magnitude >= wanted) ?? 10;
  return nice * magnitude;
}

function shorten(label: string, width: number): string {
  const fits = Math.max(3, Math.floor(width / 6.5));
  return label.length > fits ? `${label.slice(0, fits - 1)}…` : label;
}

/**
 * A grouped bar chart as SVG: the bars of one category stand side by side (never on top of each
 * other), each filled with its series' pattern and topped with its figure. `id` keeps the
 * patterns of several charts on one page apart. The figures stay in the table beside it.
 */
export function barPlot(
  id: string,
  name: string,
  labels: readonly string[],
  series: readonly BarSeries[],
): SVGTemplateResult {
  const top = scaleTop(Math.max(0, ...series.flatMap((s) => s.values)));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const group = plotWidth / Math.max(1, labels.length);
  const bar = Math.min(56, (group * 0.8) / Math.max(1, series.length));
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const patternId = (index: number) => `${id}-series-${index}`;
  // The figure above each bar, when the bar is wide enough for it to be read.
  const figures = bar >= 14;
  return svg`<svg role="img" aria-label=${name} viewBox="0 0 ${WIDTH} ${HEIGHT}" class="bars">
    <defs>${series.map((_, i) => pattern(patternId(i), i))}</defs>
    ${
      series.length > 1
        ? series.map(
            (s, i) => svg`<g transform="translate(${LEFT + i * Math.floor(plotWidth / series.length)}, 6)">
            <rect class="bar" width="16" height="16" fill="url(#${patternId(i)})" stroke=${SERIES_COLOURS[i % SERIES_COLOURS.length]}></rect>
            <text x="22" y="13">${shorten(s.label, plotWidth / series.length - 26)}</text>
          </g>`,
          )
        : ''
    }
    ${[0, 0.5, 1].map(
      (share) => svg`<line class="grid" x1=${LEFT} x2=${WIDTH - RIGHT} y1=${y(top * share)} y2=${y(top * share)}></line>
        <text class="axis" x=${LEFT - 6} y=${y(top * share) + 4} text-anchor="end">${Math.round(top * share * 10) / 10}</text>`,
    )}
    ${labels.map((label, row) => {
      const start = LEFT + row * group + (group - bar * series.length) / 2;
      return svg`<g>
        ${series.map((s, i) => {
          const value = s.values[row] ?? 0;
          const x = start + i * bar;
          return svg`<rect class="bar" x=${x + 1} y=${y(value)} width=${Math.max(1, bar - 2)} height=${Math.max(0, TOP + plotHeight - y(value))}
              fill="url(#${patternId(i)})" stroke=${SERIES_COLOURS[i % SERIES_COLOURS.length]} stroke-width="1.5"><title>${s.label}, ${label}: ${value}</title></rect>
            ${figures ? svg`<text class="figure" x=${x + bar / 2} y=${y(value) - 4} text-anchor="middle">${value}</text>` : ''}`;
        })}
        <text class="axis" x=${LEFT + row * group + group / 2} y=${HEIGHT - BOTTOM + 16} text-anchor="middle">${shorten(label, group)}</text>
      </g>`;
    })}
    <line class="baseline" x1=${LEFT} x2=${WIDTH - RIGHT} y1=${TOP + plotHeight} y2=${TOP + plotHeight}></line>
  </svg>`;
}

/** The bar chart's look, including Windows high-contrast (forced colours): ink and lines in the system's text colour. */
export const barPlotStyles = css`
  svg.bars {
    display: block;
    width: 100%;
    max-width: 44rem;
    height: auto;
    font-size: 12px;
  }
  svg.bars text {
    fill: #1b1f23;
  }
  svg.bars .figure {
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  svg.bars .grid {
    stroke: #d5dade;
  }
  svg.bars .baseline {
    stroke: #5c6670;
  }
  @media (forced-colors: active) {
    svg.bars text,
    svg.bars .ink {
      fill: CanvasText;
    }
    svg.bars .paper {
      fill: Canvas;
    }
    svg.bars .bar,
    svg.bars .line,
    svg.bars .grid,
    svg.bars .baseline {
      stroke: CanvasText;
    }
  }
`;
