/** Time-axis helpers shared by the charts: tick labels sized to the span they cover. */

const HOUR_MS = 3_600_000;

/** A tick label for a time, as short as the span allows (time of day within two days). */
export function formatTimeTick(ms: number, spanMs: number): string {
  const date = new Date(ms);
  if (spanMs <= 2 * HOUR_MS)
    return date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  if (spanMs <= 2 * 24 * HOUR_MS)
    return date.toLocaleString('en-GB', { day: '2-digit', hour: '2-digit', minute: '2-digit' });
  return date.toLocaleDateString('en-GB', { day: '2-digit', month: 'short' });
}

/** A time in full, for tooltips. */
export function formatTimeFull(ms: number): string {
  return new Date(ms).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}
