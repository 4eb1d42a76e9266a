'use client';

import type { ReactNode } from 'react';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
  type DotItemDotProps,
} from 'recharts';
import { useChartWidth } from './chart-size';
import { AXIS_COLOR, BREACH_COLOR, GRID_COLOR, TARGET_COLOR, seriesColor } from './chart-theme';
import { formatTimeFull, formatTimeTick } from './chart-time';

/** One value of a series at a time; null leaves a gap (no data in that bucket). */
export interface TimePoint {
  /** Milliseconds since the epoch. */
  at: number;
  value: number | null;
}

export interface TimeSeries {
  /** Unique among the chart's series. */
  key: string;
  name: string;
  color?: string;
  points: readonly TimePoint[];
  /** False for a reference series the targets do not judge (stable beside a canary). */
  judged?: boolean;
}

/**
 * A target drawn as a horizontal line: `min` values must reach it (a success rate), `max` values
 * must stay at or below it (a latency). Points on the wrong side are marked as breaches.
 */
export interface TargetLine {
  value: number;
  label: string;
  kind: 'min' | 'max';
}

export interface TimeSeriesChartProps {
  title: string;
  series: readonly TimeSeries[];
  /** The y axis's label: its unit ("%", "calls"), or what it measures when ticks carry units. */
  unit: string;
  /** Formats a value for ticks, tooltips and single-point labels. */
  format: (value: number) => string;
  targets?: readonly TargetLine[];
  /** Fixed y range, e.g. [0, 1] for rates; by default it fits the data and the targets. */
  yDomain?: readonly [number, number];
  /** The window shown on the x axis, so a single point sits where it belongs in time. */
  range?: { from: number; to: number };
  height?: number;
  /** Said instead of the chart when no series has a value. */
  emptyText?: string;
}

type Row = { at: number } & Record<string, number | null>;

/** One row per time with a column per series, as recharts wants it. */
function rowsOf(series: readonly TimeSeries[]): Row[] {
  const byTime = new Map<number, Row>();
  for (const line of series) {
    for (const point of line.points) {
      const row = byTime.get(point.at) ?? { at: point.at };
      row[line.key] = point.value;
      byTime.set(point.at, row);
    }
  }
  return [...byTime.values()].sort((left, right) => left.at - right.at);
}

export function isBreach(value: number, targets: readonly TargetLine[]): boolean {
  return targets.some((target) =>
    target.kind === 'min' ? value < target.value : value > target.value,
  );
}

function valuesOf(line: TimeSeries): number[] {
  return line.points.map((point) => point.value).filter((value): value is number => value !== null);
}

/** What a screen reader hears: each series' latest value and its breaches. */
function summaryOf(props: TimeSeriesChartProps): string {
  const targets = props.targets ?? [];
  return props.series
    .map((line) => {
      const values = valuesOf(line);
      const latest = values.at(-1);
      const breaches =
        line.judged === false ? 0 : values.filter((value) => isBreach(value, targets)).length;
      return `${line.name}: ${latest === undefined ? 'no data' : `latest ${props.format(latest)}`}${
        breaches > 0 ? `, ${breaches} breach${breaches === 1 ? '' : 'es'}` : ''
      }`;
    })
    .join('; ');
}

/**
 * Lines over time with labelled axes, a legend, a tooltip and target lines; points past a target
 * are marked, and a series with a single value shows that point with its value written beside it.
 */
export function TimeSeriesChart(props: TimeSeriesChartProps) {
  const { title, series, unit, format, targets = [], yDomain, range, height = 220 } = props;
  const { ref, width } = useChartWidth<HTMLDivElement>();
  const hasData = series.some((line) => valuesOf(line).length > 0);
  const rows = rowsOf(series);
  const times = rows.map((row) => row.at);
  const from = range?.from ?? Math.min(...times);
  const to = range?.to ?? Math.max(...times);
  const span = Math.max(to - from, 1);
  const allValues = [...series.flatMap(valuesOf), ...targets.map((target) => target.value)];
  const domain: [number, number] = yDomain
    ? [yDomain[0], yDomain[1]]
    : [Math.min(0, ...allValues), Math.max(1, ...allValues) * 1.05];

  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <div
        ref={ref}
        className="chart-body"
        style={{ minHeight: height }}
        role="img"
        aria-label={`${title}. ${summaryOf(props)}`}
      >
        {hasData ? (
          <LineChart
            width={width}
            height={height}
            data={rows}
            margin={{ top: 12, right: 44, bottom: 4, left: 8 }}
          >
            <CartesianGrid stroke={GRID_COLOR} vertical={false} />
            <XAxis
              dataKey="at"
              type="number"
              scale="time"
              domain={[from, to]}
              tickFormatter={(value: number) => formatTimeTick(value, span)}
              stroke={AXIS_COLOR}
              fontSize={11}
              minTickGap={24}
            />
            <YAxis
              domain={domain}
              tickFormatter={(value: number) => format(value)}
              stroke={AXIS_COLOR}
              fontSize={11}
              width={56}
              label={{
                value: unit,
                angle: -90,
                position: 'insideLeft',
                fill: AXIS_COLOR,
                fontSize: 11,
              }}
            />
            <Tooltip
              labelFormatter={(value) => (typeof value === 'number' ? formatTimeFull(value) : '')}
              formatter={(value) => (typeof value === 'number' ? format(value) : '—')}
            />
            <Legend verticalAlign="bottom" itemSorter={null} />
            {targets.map((target) => (
              <ReferenceLine
                key={`${target.kind}-${target.value}`}
                y={target.value}
                className="chart-target"
                stroke={TARGET_COLOR}
                strokeDasharray="6 4"
                ifOverflow="extendDomain"
                label={{
                  value: target.label,
                  position: 'insideTopRight',
                  fill: TARGET_COLOR,
                  fontSize: 11,
                }}
              />
            ))}
            {series.map((line, index) => {
              const color = line.color ?? seriesColor(index);
              const single = valuesOf(line).length === 1;
              return (
                <Line
                  key={line.key}
                  dataKey={line.key}
                  name={line.name}
                  stroke={color}
                  strokeWidth={2}
                  isAnimationActive={false}
                  connectNulls={false}
                  dot={(dot: DotItemDotProps) => (
                    <ChartDot
                      key={`${line.key}-${dot.index}`}
                      dot={dot}
                      color={color}
                      single={single}
                      format={format}
                      targets={line.judged === false ? [] : targets}
                    />
                  )}
                />
              );
            })}
          </LineChart>
        ) : (
          <p className="chart-empty">{props.emptyText ?? 'No data in this window.'}</p>
        )}
      </div>
    </figure>
  );
}

function ChartDot({
  dot,
  color,
  single,
  format,
  targets,
}: {
  dot: DotItemDotProps;
  color: string;
  single: boolean;
  format: (value: number) => string;
  targets: readonly TargetLine[];
}): ReactNode {
  const value: unknown = dot.value;
  if (typeof value !== 'number' || dot.cx === undefined || dot.cy === undefined) return null;
  const { cx, cy } = dot;
  const breach = isBreach(value, targets);
  return (
    <g>
      {breach ? (
        <circle
          className="chart-breach"
          cx={cx}
          cy={cy}
          r={5}
          fill={BREACH_COLOR}
          stroke="#fff"
          strokeWidth={1.5}
        >
          <title>{`breach: ${format(value)}`}</title>
        </circle>
      ) : (
        <circle className="chart-point" cx={cx} cy={cy} r={single ? 4 : 2.5} fill={color} />
      )}
      {single ? (
        <text className="chart-point-value" x={cx + 8} y={cy - 8} fill={color} fontSize={12}>
          {format(value)}
        </text>
      ) : null}
    </g>
  );
}
