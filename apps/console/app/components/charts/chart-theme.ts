/** Series colours the charts cycle through, readable on white and told apart without red/green. */
export const SERIES_COLORS = [
  '#2f5bd3',
  '#d9480f',
  '#0b7285',
  '#9c36b5',
  '#5c940d',
  '#e8590c',
  '#364fc7',
  '#862e9c',
] as const;

export const BREACH_COLOR = '#b42318';
export const TARGET_COLOR = '#8a5a00';
export const AXIS_COLOR = '#5b6675';
export const GRID_COLOR = '#e6e9ee';

export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length] ?? SERIES_COLORS[0];
}
