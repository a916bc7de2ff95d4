/**
 * The Insight charts, drawn on the server as SVG inside the page (docs/console.md, "Insight: why SVG from the
 * server"). Scales, nice axis ends and ticks come from d3-scale; the shapes are a handful of rectangles and text
 * written with the escaping `html` template. No script runs and no style attribute is used (the console's CSP has
 * neither): colours and fonts come from classes in the console's stylesheet.
 *
 * Every chart is a `<figure>`: the SVG is one image (`role="img"`) whose label says what it shows in a sentence,
 * and under it a disclosure opens the same figures as a table, for screen readers, copying and exact numbers.
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import { html, type SafeHtml } from '../../hosted/html.js';

const MARGIN = { top: 12, right: 16, bottom: 36, left: 48 } as const;

export interface Series {
  readonly key: string;
  readonly label: string;
  /** A class of the stylesheet's chart colours: `completed`, `failed`, `pending`, `primary`, `muted`. */
  readonly tone: 'completed' | 'failed' | 'pending' | 'primary' | 'muted';
}

export interface ChartFrame {
  /** The figure's id (headings and tables refer to it). */
  readonly id: string;
  readonly title: string;
  /** One sentence that says what the chart shows: the image's text alternative. */
  readonly summary: string;
  /** The same figures as a table. */
  readonly table: SafeHtml;
}

/**
 * A chart is drawn twice, for a wide and a narrow column (the stylesheet shows one by the screen's width): an SVG
 * scales as a whole, so one drawing for both would leave a phone with unreadable 5-pixel text.
 */
const LAYOUTS = [
  { className: 'plot-wide', width: 720, font: 12 },
  { className: 'plot-narrow', width: 360, font: 13 },
] as const;
type Layout = (typeof LAYOUTS)[number];

function figure(frame: ChartFrame, draw: (layout: Layout) => SafeHtml, legend: SafeHtml | ''): SafeHtml {
  return html`<figure class="chart card" aria-labelledby="${frame.id}-title">
<figcaption><h2 id="${frame.id}-title">${frame.title}</h2><p class="muted">${frame.summary}</p></figcaption>
${legend}
${LAYOUTS.map((layout) => html`<div class="${layout.className}">${draw(layout)}</div>`)}
<details class="more"><summary>Show the figures as a table<span class="visually-hidden">: ${frame.title}</span></summary>${frame.table}</details>
</figure>`;
}

function legendOf(series: readonly Series[]): SafeHtml {
  return html`<ul class="legend" aria-hidden="true">${series.map((item) => html`<li><span class="swatch ${item.tone}"></span>${item.label}</li>`)}</ul>`;
}

function svgOpen(frame: ChartFrame, layout: Layout, height: number): SafeHtml {
  return html`<svg class="plot font-${layout.font}" viewBox="0 0 ${layout.width} ${height}" role="img" aria-label="${frame.summary}" preserveAspectRatio="xMidYMid meet" focusable="false">`;
}

/** Horizontal grid lines with their values on the left. */
function valueAxis(layout: Layout, y: (value: number) => number, ticks: readonly number[], format: (value: number) => string): SafeHtml {
  return html`<g class="axis">${ticks.map(
    (tick) =>
      html`<line class="grid" x1="${MARGIN.left}" x2="${layout.width - MARGIN.right}" y1="${y(tick)}" y2="${y(tick)}"></line><text x="${MARGIN.left - 6}" y="${y(tick) + 4}" text-anchor="end">${format(tick)}</text>`,
  )}</g>`;
}

const count = (value: number): string => (Number.isInteger(value) ? value.toLocaleString('en-GB') : value.toFixed(1));

export interface StackedBarsInput {
  readonly frame: ChartFrame;
  readonly series: readonly Series[];
  readonly bars: readonly { readonly key: string; readonly label: string; readonly values: Readonly<Record<string, number>> }[];
  /** Label every n-th bar (dense time axes). */
  readonly labelEvery: number;
}

/** Stacked vertical bars: e.g. payments per hour or day, by outcome. */
export function stackedBars(input: StackedBarsInput): SafeHtml {
  const height = 260;
  const totals = input.bars.map((bar) => input.series.reduce((sum, item) => sum + (bar.values[item.key] ?? 0), 0));
  const draw = (layout: Layout): SafeHtml => {
    const x = scaleBand<string>()
      .domain(input.bars.map((bar) => bar.key))
      .range([MARGIN.left, layout.width - MARGIN.right])
      .padding(0.2);
    const y = scaleLinear()
      .domain([0, Math.max(1, ...totals)])
      .nice(4)
      .range([height - MARGIN.bottom, MARGIN.top]);
    const ticks = y.ticks(4).filter(Number.isInteger);
    // A narrow column labels half as many bars.
    const labelEvery = layout.width < 720 ? input.labelEvery * 2 : input.labelEvery;
    const bars = input.bars.map((bar, index) => {
      let base = 0;
      const left = x(bar.key) ?? 0;
      const segments = input.series.map((item) => {
        const value = bar.values[item.key] ?? 0;
        const top = y(base + value);
        const bottom = y(base);
        base += value;
        return value === 0
          ? ''
          : html`<rect class="${item.tone}" x="${left}" y="${top}" width="${x.bandwidth()}" height="${Math.max(0, bottom - top)}"></rect>`;
      });
      const label =
        index % labelEvery === 0
          ? html`<text class="tick" x="${left + x.bandwidth() / 2}" y="${height - MARGIN.bottom + 16}" text-anchor="middle">${bar.label}</text>`
          : '';
      return html`<g>${segments}${label}</g>`;
    });
    return html`${svgOpen(input.frame, layout, height)}${valueAxis(layout, y, ticks, count)}${bars}<line class="baseline" x1="${MARGIN.left}" x2="${layout.width - MARGIN.right}" y1="${y(0)}" y2="${y(0)}"></line></svg>`;
  };
  return figure(input.frame, draw, legendOf(input.series));
}

export interface HorizontalBarsInput {
  readonly frame: ChartFrame;
  readonly bars: readonly { readonly label: string; readonly value: number; readonly note: string; readonly tone: Series['tone'] }[];
  /** The value of a full-length bar (e.g. the funnel's first step, or 1 for shares). */
  readonly full: number;
}

/** Horizontal bars, each under a line with its label (left) and its figures (right): a funnel, or a share per bank. */
export function horizontalBars(input: HorizontalBarsInput): SafeHtml {
  const row = 46;
  const height = Math.max(row, input.bars.length * row) + 4;
  const draw = (layout: Layout): SafeHtml => {
    const x = scaleLinear()
      .domain([0, Math.max(input.full, 1e-9)])
      .range([0, layout.width - 2]);
    const bars = input.bars.map((bar, index) => {
      const top = index * row + 4;
      const length = Math.max(bar.value > 0 ? 2 : 0, x(Math.min(bar.value, input.full)));
      return html`<g><text class="bar-label" x="1" y="${top + 14}">${bar.label}</text><text class="bar-note" x="${layout.width - 1}" y="${top + 14}" text-anchor="end">${bar.note}</text>
<rect class="track" x="1" y="${top + 21}" width="${x(input.full)}" height="16" rx="3"></rect>
<rect class="${bar.tone}" x="1" y="${top + 21}" width="${length}" height="16" rx="3"></rect></g>`;
    });
    return html`${svgOpen(input.frame, layout, height)}${bars}</svg>`;
  };
  return figure(input.frame, draw, '');
}

export interface ColumnsInput {
  readonly frame: ChartFrame;
  readonly columns: readonly { readonly label: string; readonly value: number }[];
  readonly tone: Series['tone'];
}

/** Vertical columns over labelled buckets: a histogram. */
export function columns(input: ColumnsInput): SafeHtml {
  const height = 240;
  const draw = (layout: Layout): SafeHtml => {
    const x = scaleBand<string>()
      .domain(input.columns.map((column) => column.label))
      .range([MARGIN.left, layout.width - MARGIN.right])
      .padding(0.25);
    const y = scaleLinear()
      .domain([0, Math.max(1, ...input.columns.map((column) => column.value))])
      .nice(4)
      .range([height - MARGIN.bottom, MARGIN.top + 8]);
    const ticks = y.ticks(4).filter(Number.isInteger);
    // A narrow column has no room for every bucket's words: every other one is labelled.
    const labelEvery = layout.width < 720 ? 2 : 1;
    const bars = input.columns.map((column, index) => {
      const left = x(column.label) ?? 0;
      return html`<g>${column.value === 0 ? '' : html`<rect class="${input.tone}" x="${left}" y="${y(column.value)}" width="${x.bandwidth()}" height="${y(0) - y(column.value)}"></rect><text class="value" x="${left + x.bandwidth() / 2}" y="${y(column.value) - 4}" text-anchor="middle">${count(column.value)}</text>`}
${index % labelEvery === 0 ? html`<text class="tick" x="${left + x.bandwidth() / 2}" y="${height - MARGIN.bottom + 16}" text-anchor="middle">${column.label}</text>` : ''}</g>`;
    });
    return html`${svgOpen(input.frame, layout, height)}${valueAxis(layout, y, ticks, count)}${bars}<line class="baseline" x1="${MARGIN.left}" x2="${layout.width - MARGIN.right}" y1="${y(0)}" y2="${y(0)}"></line></svg>`;
  };
  return figure(input.frame, draw, '');
}
