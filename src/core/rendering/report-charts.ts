/**
 * The report's charts as SVG drawn here, on the server (docs/dashboard.md says why no charting
 * library): a heat map and a bar chart (grouped or stacked). Every chart is a <figure> with a
 * text alternative (the SVG's <title>/<desc> and a visible caption) and its numbers in a table.
 * Each drawn value is one element with class "mark" (the browser tests count them). No inline
 * style attribute anywhere: the pages' Content-Security-Policy allows no inline style.
 */

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Okabe–Ito colours: told apart by people with the common colour-vision deficiencies. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000', '#999999'];

export interface ChartText {
  /** element id prefix, e.g. "transfer" */
  id: string;
  title: string;
  /** the text alternative: what the chart shows, in a sentence or two */
  summary: string;
}

export interface TableData {
  caption: string;
  head: string[];
  rows: (string | number)[][];
}

function table(data: TableData): string {
  const head = data.head.map((h, i) => `<th scope="col"${i === 0 ? '' : ' class="num"'}>${escapeHtml(h)}</th>`);
  const rows = data.rows.map(
    (row) =>
      `<tr>${row
        .map((cell, i) =>
          i === 0
            ? `<th scope="row">${escapeHtml(String(cell))}</th>`
            : `<td class="num">${escapeHtml(String(cell))}</td>`,
        )
        .join('')}</tr>`,
  );
  return `<table class="numbers"><caption>${escapeHtml(data.caption)}</caption><thead><tr>${head.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function figure(text: ChartText, svg: string, data: TableData): string {
  const id = escapeHtml(text.id);
  return [
    `<figure class="chart" id="fig-${id}" aria-labelledby="fig-${id}-caption">`,
    svg,
    `<figcaption id="fig-${id}-caption"><strong>${escapeHtml(text.title)}.</strong> ${escapeHtml(text.summary)}</figcaption>`,
    `<details class="numbers"><summary>The numbers of “${escapeHtml(text.title)}”</summary>${table(data)}</details>`,
    '</figure>',
  ].join('\n');
}

function svgOpen(text: ChartText, width: number, height: number): string {
  const id = escapeHtml(text.id);
  return (
    `<svg class="chart-svg" role="img" aria-labelledby="fig-${id}-title fig-${id}-desc" viewBox="0 0 ${width} ${height}" ` +
    `width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="fig-${id}-title">${escapeHtml(text.title)}</title><desc id="fig-${id}-desc">${escapeHtml(text.summary)}</desc>`
  );
}

/**
 * The width a chart text takes, at most: 11 px text averages about 6 px a character in common
 * sans-serif fonts, and no character of them is wider than 7.2 (digits of DejaVu Sans: 7.0). The
 * charts leave this much room for every label, so none is cut off by the SVG's edge.
 */
export function textWidth(text: string): number {
  return Math.ceil(text.length * 7.2);
}

/** The height of a line of chart text. */
const LINE = 14;

const COS45 = Math.SQRT1_2;
const COS40 = Math.cos((40 * Math.PI) / 180);
const SIN40 = Math.sin((40 * Math.PI) / 180);

function clip(label: string, max = 28): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

/** Rounds up to 1, 2 or 5 × a power of ten. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function empty(text: ChartText, message: string, data: TableData): string {
  const id = escapeHtml(text.id);
  return [
    `<figure class="chart" id="fig-${id}" aria-labelledby="fig-${id}-caption">`,
    `<p class="empty">${escapeHtml(message)}</p>`,
    `<figcaption id="fig-${id}-caption"><strong>${escapeHtml(text.title)}.</strong> ${escapeHtml(text.summary)}</figcaption>`,
    `<details class="numbers"><summary>The numbers of “${escapeHtml(text.title)}”</summary>${table(data)}</details>`,
    '</figure>',
  ].join('\n');
}

export interface HeatCell {
  row: string;
  column: string;
  /** drives the colour and is printed in the cell */
  value: number;
  /** the cell's full description (tooltip) */
  label: string;
}

/** A heat map: one mark per non-empty cell, darker for larger values, the value printed in it. */
export function heatMap(
  text: ChartText,
  rows: string[],
  columns: string[],
  cells: HeatCell[],
  data: TableData,
  emptyMessage: string,
): string {
  if (cells.length === 0) return empty(text, emptyMessage, data);
  const cw = 56;
  const ch = 30;
  const axisTitle = 'rows: source repository · columns: receiving repository';
  // room for the longest row label, and for each column label written at 40° (it rises to the right)
  const left = 16 + Math.max(...rows.map((r) => textWidth(clip(r))));
  const columnWidths = columns.map((c) => textWidth(clip(c, 24)));
  const top = 2 * LINE + 8 + Math.ceil(Math.max(...columnWidths) * SIN40 + LINE);
  const reach = Math.max(
    ...columnWidths.map((w, i) => left + i * cw + cw / 2 + w * COS40 + LINE),
    left + columns.length * cw,
  );
  const width = Math.ceil(Math.max(reach + 12, 8 + textWidth(axisTitle), 340));
  const height = top + rows.length * ch + 20;
  const max = Math.max(1, ...cells.map((c) => c.value));
  const parts = [svgOpen(text, width, height), `<text class="axis-title" x="4" y="14">${axisTitle}</text>`];
  columns.forEach((column, i) => {
    const x = left + i * cw + cw / 2;
    parts.push(
      `<text class="axis-label" x="${x}" y="${top - 8}" transform="rotate(-40 ${x} ${top - 8})">${escapeHtml(clip(column, 24))}</text>`,
    );
  });
  rows.forEach((row, j) => {
    const y = top + j * ch + ch / 2 + 4;
    parts.push(`<text class="axis-label" x="${left - 8}" y="${y}" text-anchor="end">${escapeHtml(clip(row))}</text>`);
    columns.forEach((_, i) => {
      parts.push(
        `<rect class="grid-cell" x="${left + i * cw}" y="${top + j * ch}" width="${cw - 2}" height="${ch - 2}" fill="#f3f4f6"/>`,
      );
    });
  });
  for (const cell of cells) {
    const i = columns.indexOf(cell.column);
    const j = rows.indexOf(cell.row);
    if (i < 0 || j < 0) continue;
    const share = cell.value / max;
    // light to dark blue; the printed value switches to white on the darker half
    const lightness = Math.round(92 - share * 62);
    const x = left + i * cw;
    const y = top + j * ch;
    parts.push(
      `<rect class="mark" data-row="${escapeHtml(cell.row)}" data-column="${escapeHtml(cell.column)}" data-value="${cell.value}" ` +
        `x="${x}" y="${y}" width="${cw - 2}" height="${ch - 2}" fill="hsl(210 80% ${lightness}%)"><title>${escapeHtml(cell.label)}</title></rect>`,
      `<text class="cell-value${lightness < 60 ? ' on-dark' : ''}" x="${x + (cw - 2) / 2}" y="${y + ch / 2 + 3}" text-anchor="middle">${cell.value}</text>`,
    );
  }
  parts.push('</svg>');
  return figure(text, parts.join(''), data);
}

/**
 * The legend's entries left to right from `left`, a new row when the next would pass `width`; an
 * entry is a 12 px key, a gap, its name and 20 px before the next. `width` grows if one entry alone
 * is wider.
 */
function legendLayout(
  names: string[],
  left: number,
  width: number,
): { places: { x: number; row: number }[]; rows: number; width: number } {
  const places: { x: number; row: number }[] = [];
  let x = left;
  let row = 0;
  let widest = width;
  for (const name of names) {
    const entry = 18 + textWidth(name);
    if (x > left && x + entry > width - 8) {
      row += 1;
      x = left;
    }
    places.push({ x, row });
    widest = Math.max(widest, x + entry + 8);
    x += entry + 20;
  }
  return { places, rows: names.length === 0 ? 0 : row + 1, width: widest };
}

export interface BarSeries {
  name: string;
  values: number[];
  color: string;
}

/**
 * Vertical bars per category: side by side (grouped) or on top of each other (stacked). One mark
 * per non-zero value; a legend names the series.
 */
export function barChart(
  text: ChartText,
  categories: string[],
  series: BarSeries[],
  options: { stacked: boolean; data: TableData; emptyMessage: string },
): string {
  const total = series.reduce((n, s) => n + s.values.reduce((a, b) => a + b, 0), 0);
  if (categories.length === 0 || total === 0) return empty(text, options.emptyMessage, options.data);
  const top = 16;
  const plotHeight = 200;
  const band = Math.max(28, Math.min(72, Math.floor(640 / categories.length)));
  const labels = categories.map((c) => clip(c, 16));
  const labelWidths = labels.map((l) => textWidth(l));
  const rotate = labelWidths.some((w) => w > band - 4);
  // a label written at -45° ends at its category's centre and reaches down and to the left
  const left = Math.ceil(
    Math.max(48, ...(rotate ? labelWidths.map((w, i) => w * COS45 + LINE - i * band - band / 2) : [0])),
  );
  const labelsHeight = rotate ? Math.ceil(Math.max(...labelWidths) * COS45 + LINE) : LINE;
  const chartWidth = Math.max(left + categories.length * band + 20, 560);
  const legend = legendLayout(
    series.map((s) => s.name),
    left,
    chartWidth,
  );
  const width = Math.max(chartWidth, legend.width);
  const legendTop = top + plotHeight + 14 + labelsHeight + 10;
  const height = legendTop + legend.rows * 20 + 4;
  const max = niceMax(
    Math.max(
      ...categories.map((_, i) =>
        options.stacked
          ? series.reduce((n, s) => n + (s.values[i] ?? 0), 0)
          : Math.max(...series.map((s) => s.values[i] ?? 0)),
      ),
    ),
  );
  const y = (value: number) => top + plotHeight - (value / max) * plotHeight;
  const parts = [svgOpen(text, width, height)];
  for (const tick of [0, max / 2, max]) {
    parts.push(
      `<line class="gridline" x1="${left}" x2="${left + categories.length * band}" y1="${y(tick)}" y2="${y(tick)}" stroke="#d1d5db"/>`,
      `<text class="axis-label" x="${left - 6}" y="${y(tick) + 4}" text-anchor="end">${Number.isInteger(tick) ? tick : tick.toFixed(1)}</text>`,
    );
  }
  categories.forEach((category, i) => {
    const x0 = left + i * band;
    const cx = x0 + band / 2;
    const ly = top + plotHeight + 14;
    parts.push(
      rotate
        ? `<text class="axis-label" x="${cx}" y="${ly}" text-anchor="end" transform="rotate(-45 ${cx} ${ly})">${escapeHtml(labels[i] as string)}</text>`
        : `<text class="axis-label" x="${cx}" y="${ly}" text-anchor="middle">${escapeHtml(labels[i] as string)}</text>`,
    );
    let stackedBase = 0;
    const inner = band - 6;
    const barWidth = options.stacked ? inner : inner / series.length;
    series.forEach((s, k) => {
      const value = s.values[i] ?? 0;
      if (value <= 0) return;
      const x = options.stacked ? x0 + 3 : x0 + 3 + k * barWidth;
      const yTop = options.stacked ? y(stackedBase + value) : y(value);
      const yBottom = options.stacked ? y(stackedBase) : y(0);
      stackedBase += options.stacked ? value : 0;
      parts.push(
        `<rect class="mark" data-series="${escapeHtml(s.name)}" data-category="${escapeHtml(category)}" data-value="${value}" ` +
          `x="${x.toFixed(1)}" y="${yTop.toFixed(1)}" width="${Math.max(1, barWidth - 1).toFixed(1)}" height="${Math.max(1, yBottom - yTop).toFixed(1)}" fill="${s.color}">` +
          `<title>${escapeHtml(`${category}: ${s.name} ${value}`)}</title></rect>`,
      );
    });
  });
  series.forEach((s, k) => {
    const place = legend.places[k] as { x: number; row: number };
    const lx = place.x;
    const ly = legendTop + place.row * 20;
    parts.push(
      `<rect class="legend-key" x="${lx}" y="${ly}" width="12" height="12" fill="${s.color}"/>`,
      `<text class="legend-label" x="${lx + 18}" y="${ly + 10}">${escapeHtml(s.name)}</text>`,
    );
  });
  parts.push('</svg>');
  return figure(text, parts.join(''), options.data);
}
