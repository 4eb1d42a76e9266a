'use client';

import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { useChartWidth } from './chart-size';
import { AXIS_COLOR, GRID_COLOR, seriesColor } from './chart-theme';
import { formatTimeFull, formatTimeTick } from './chart-time';

/** One time bucket: [start, end) in ms since the epoch, and a count per series. */
export interface BarBucket {
  start: number;
  end: number;
  values: Readonly<Record<string, number>>;
}

export interface BarSeries {
  key: string;
  name: string;
  color?: string;
}

/** What a click on a bar picked: the bucket and the series of the segment clicked. */
export interface BarSelection {
  bucket: BarBucket;
  series: BarSeries;
}

export interface StackedBarChartProps {
  title: string;
  buckets: readonly BarBucket[];
  series: readonly BarSeries[];
  /** The y axis's unit ("calls"). */
  unit: string;
  format?: (value: number) => string;
  /** Makes each bar segment a button for its bucket and series. */
  onSelect?: (selection: BarSelection) => void;
  height?: number;
  emptyText?: string;
}

type Row = { start: number } & Record<string, number>;

/** Bars over time, one stacked segment per series; a segment can be clicked to pick it. */
export function StackedBarChart({
  title,
  buckets,
  series,
  unit,
  format = (value) => String(value),
  onSelect,
  height = 220,
  emptyText = 'Nothing in this window.',
}: StackedBarChartProps) {
  const { ref, width } = useChartWidth<HTMLDivElement>();
  const rows: Row[] = buckets.map((bucket) => {
    const row: Row = { start: bucket.start };
    for (const line of series) row[line.key] = bucket.values[line.key] ?? 0;
    return row;
  });
  const total = (bucket: BarBucket) =>
    series.reduce((sum, line) => sum + (bucket.values[line.key] ?? 0), 0);
  const hasData = buckets.some((bucket) => total(bucket) > 0);
  const first = buckets[0]?.start ?? 0;
  const span = (buckets.at(-1)?.end ?? first) - first;
  const bucketAt = new Map(buckets.map((bucket) => [bucket.start, bucket]));

  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <div
        ref={ref}
        className="chart-body"
        style={{ minHeight: height }}
        role="img"
        aria-label={`${title}. ${series
          .map(
            (line) =>
              `${line.name}: ${format(buckets.reduce((sum, bucket) => sum + (bucket.values[line.key] ?? 0), 0))}`,
          )
          .join('; ')}`}
      >
        {hasData ? (
          <BarChart
            width={width}
            height={height}
            data={rows}
            margin={{ top: 12, right: 16, bottom: 4, left: 8 }}
          >
            <CartesianGrid stroke={GRID_COLOR} vertical={false} />
            <XAxis
              dataKey="start"
              tickFormatter={(value: number) => formatTimeTick(value, span)}
              stroke={AXIS_COLOR}
              fontSize={11}
              minTickGap={24}
            />
            <YAxis
              allowDecimals={false}
              tickFormatter={(value: number) => format(value)}
              stroke={AXIS_COLOR}
              fontSize={11}
              width={48}
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
            {series.map((line, index) => (
              <Bar
                key={line.key}
                dataKey={line.key}
                name={line.name}
                stackId="buckets"
                fill={line.color ?? seriesColor(index)}
                isAnimationActive={false}
                cursor={onSelect ? 'pointer' : undefined}
                onClick={(item) => {
                  const start: unknown = (item.payload as Row | undefined)?.start;
                  const bucket = typeof start === 'number' ? bucketAt.get(start) : undefined;
                  if (bucket && onSelect) onSelect({ bucket, series: line });
                }}
              />
            ))}
          </BarChart>
        ) : (
          <p className="chart-empty">{emptyText}</p>
        )}
      </div>
    </figure>
  );
}
