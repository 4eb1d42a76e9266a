'use client';

export interface ChartSeries {
  name: string;
  className: string;
  values: Array<number | null>;
}

/** A plain SVG line chart over equally spaced buckets; null values leave gaps. */
export function LineChart({
  title,
  labels,
  series,
  format,
  max,
}: {
  title: string;
  labels: string[];
  series: ChartSeries[];
  format: (value: number) => string;
  max?: number;
}) {
  const width = 560;
  const height = 180;
  const padding = { left: 56, right: 12, top: 12, bottom: 24 };
  const all = series.flatMap((line) =>
    line.values.filter((value): value is number => value !== null),
  );
  const top = max ?? Math.max(1, ...all);
  const innerWidth = width - padding.left - padding.right;
  const innerHeight = height - padding.top - padding.bottom;
  const x = (index: number) =>
    padding.left +
    (labels.length <= 1 ? innerWidth / 2 : (index / (labels.length - 1)) * innerWidth);
  const y = (value: number) => padding.top + innerHeight - (value / top) * innerHeight;
  const summary = series
    .map((line) => {
      const last = [...line.values].reverse().find((value) => value !== null);
      return `${line.name}: latest ${last === undefined || last === null ? 'no data' : format(last)}`;
    })
    .join('; ');

  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title}. ${summary}`}>
        {[0, 0.5, 1].map((fraction) => (
          <g key={fraction}>
            <line
              className="grid"
              x1={padding.left}
              x2={width - padding.right}
              y1={y(top * fraction)}
              y2={y(top * fraction)}
            />
            <text className="axis" x={padding.left - 6} y={y(top * fraction) + 4} textAnchor="end">
              {format(top * fraction)}
            </text>
          </g>
        ))}
        {labels.length > 0 ? (
          <>
            <text className="axis" x={padding.left} y={height - 6}>
              {labels[0]}
            </text>
            <text className="axis" x={width - padding.right} y={height - 6} textAnchor="end">
              {labels[labels.length - 1]}
            </text>
          </>
        ) : null}
        {series.map((line) => {
          const segments: string[] = [];
          let current = '';
          line.values.forEach((value, index) => {
            if (value === null) {
              if (current) segments.push(current);
              current = '';
              return;
            }
            current += `${current ? 'L' : 'M'}${x(index).toFixed(1)},${y(value).toFixed(1)}`;
          });
          if (current) segments.push(current);
          return (
            <g key={line.name} className={line.className}>
              {segments.map((path) => (
                <path key={path} d={path} fill="none" />
              ))}
              {line.values.map((value, index) =>
                value === null ? null : <circle key={index} cx={x(index)} cy={y(value)} r={2.5} />,
              )}
            </g>
          );
        })}
      </svg>
      <ul className="legend">
        {series.map((line) => (
          <li key={line.name} className={line.className}>
            {line.name}
          </li>
        ))}
      </ul>
    </figure>
  );
}
