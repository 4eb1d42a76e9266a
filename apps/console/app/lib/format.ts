/** Small display helpers shared by the pages. */

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
}

export function formatPercent(ratio: number | null | undefined, digits = 1): string {
  return ratio === null || ratio === undefined ? '—' : `${(ratio * 100).toFixed(digits)}%`;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** "4m 12s left" / "expired" for a deadline. */
export function formatTimeLeft(deadline: string, now: number): string {
  const left = Date.parse(deadline) - now;
  if (Number.isNaN(left)) return '—';
  if (left <= 0) return 'expired';
  const seconds = Math.floor(left / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours > 0) return `${hours}h ${minutes}m left`;
  return `${minutes}m ${seconds % 60}s left`;
}

export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined';
}

/** US dollars: cents from $1 up, two significant digits below (calls cost fractions of a cent). */
export function formatUsd(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return '—';
  if (usd === 0) return '$0.00';
  if (Math.abs(usd) < 0.0001) return '<$0.0001';
  return Math.abs(usd) < 1 ? `$${usd.toPrecision(2)}` : `$${usd.toFixed(2)}`;
}
