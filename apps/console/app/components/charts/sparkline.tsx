'use client';

import { Line, LineChart, YAxis } from 'recharts';
import { seriesColor } from './chart-theme';

export interface SparklineSeries {
  key: string;
  name: string;
  color?: string;
  values: readonly number[];
}

/**
 * A small chart without axes for a table cell: the shape of a few series over the same buckets,
 * at a fixed size so it renders the same on the server, in tests and in a 390 px table.
 */
export function Sparkline({
  label,
  series,
  width = 120,
  height = 28,
}: {
  /** What the sparkline shows, read out instead of the picture. */
  label: string;
  series: readonly SparklineSeries[];
  width?: number;
  height?: number;
}) {
  const length = Math.max(0, ...series.map((line) => line.values.length));
  const rows = Array.from({ length }, (_, index) => {
    const row: Record<string, number> = { index };
    for (const line of series) row[line.key] = line.values[index] ?? 0;
    return row;
  });
  const summary = series
    .map((line) => `${line.name} ${line.values.reduce((sum, value) => sum + value, 0)}`)
    .join(', ');
  if (length === 0)
    return (
      <span className="sparkline sparkline-empty" role="img" aria-label={`${label}: no data`}>
        —
      </span>
    );
  return (
    <span className="sparkline" role="img" aria-label={`${label}: ${summary}`}>
      <LineChart
        width={width}
        height={height}
        data={rows}
        margin={{ top: 2, right: 2, bottom: 2, left: 2 }}
      >
        <YAxis hide domain={[0, 'dataMax']} />
        {series.map((line, index) => (
          <Line
            key={line.key}
            dataKey={line.key}
            name={line.name}
            stroke={line.color ?? seriesColor(index)}
            strokeWidth={1.5}
            dot={length === 1}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </span>
  );
}
