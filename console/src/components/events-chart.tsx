import type { MinuteCount } from '../api/api-types.js';
import { formatTime } from '../format/format-time.js';
import { chartBars } from './chart-bars.js';

const WIDTH = 720;
const HEIGHT = 160;
const BOTTOM = 20;
/** Room left of the plot for the y-axis label: 7 units a digit at the labels' 11px (at least two digits' room). */
const leftFor = (max: number) => 10 + 7 * Math.max(2, String(max).length);

/**
 * Events over the last hours as an inline SVG of stacked bars by severity (attributes only: no inline style, so
 * the CSP holds); colours come from classes in the style sheet, and the legend and description carry the counts
 * in words for screen readers.
 */
export function EventsChart(props: {
  readonly counts: readonly MinuteCount[];
  readonly now: string;
  readonly hours: number;
  readonly bucketMinutes: number;
}) {
  const data = chartBars(props.counts, Date.parse(props.now), props.hours, props.bucketMinutes);
  const left = leftFor(data.max);
  const plotWidth = WIDTH - left;
  const plotHeight = HEIGHT - BOTTOM;
  const step = plotWidth / Math.max(1, data.bars.length);
  const scale = data.max === 0 ? 0 : (plotHeight - 4) / data.max;
  const unit = data.bucketMinutes === 1 ? 'minute' : `${data.bucketMinutes} minutes`;
  const summary =
    data.severities.length === 0
      ? `No events in the last ${props.hours} h.`
      : `${data.severities.map((s) => `${data.totals.get(s) ?? 0} ${s}`).join(', ')} in the last ${props.hours} h; at most ${data.max} per ${unit}.`;
  const first = data.bars[0];
  const last = data.bars[data.bars.length - 1];
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="chart-title chart-desc" class="chart-svg">
        <title id="chart-title">Events per {unit}, stacked by severity</title>
        <desc id="chart-desc">{summary}</desc>
        <line x1={left} y1={plotHeight} x2={WIDTH} y2={plotHeight} class="chart-axis" />
        {data.max > 0 && (
          <text x={left - 4} y={10} class="chart-label" text-anchor="end">
            {data.max}
          </text>
        )}
        <text x={left - 4} y={plotHeight} class="chart-label" text-anchor="end">
          0
        </text>
        {data.bars.map((bar, index) =>
          bar.segments.map((segment) => (
            <rect
              key={`${index}-${segment.severity}`}
              x={left + index * step + 0.5}
              width={Math.max(1, step - 1)}
              y={plotHeight - (segment.base + segment.count) * scale}
              height={segment.count * scale}
              class={`sev-fill sev-${segment.severity.replace(/[^a-z0-9-]/gi, '')}`}
            >
              <title>{`${formatTime(new Date(bar.start).toISOString())}: ${segment.count} ${segment.severity}`}</title>
            </rect>
          )),
        )}
        {first && (
          <text x={left} y={HEIGHT - 4} class="chart-label">
            {formatTime(new Date(first.start).toISOString()).slice(11, 16)}
          </text>
        )}
        {last && (
          <text x={WIDTH} y={HEIGHT - 4} class="chart-label" text-anchor="end">
            {formatTime(new Date(last.start).toISOString()).slice(11, 16)} UTC
          </text>
        )}
      </svg>
      <figcaption>
        <ul class="legend">
          {data.severities.map((severity) => (
            <li key={severity}>
              <span class={`swatch sev-fill sev-${severity.replace(/[^a-z0-9-]/gi, '')}`} aria-hidden="true" />
              {severity}: {data.totals.get(severity) ?? 0}
            </li>
          ))}
          {data.severities.length === 0 && <li>No events in the last {props.hours} h.</li>}
        </ul>
      </figcaption>
    </figure>
  );
}
