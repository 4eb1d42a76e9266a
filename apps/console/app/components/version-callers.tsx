'use client';

import { routes } from '@toolgate/contract';
import { describeError } from '../lib/api';
import { useApi } from './use-api';

/**
 * Who called a version in the last 7 days, in one sentence: what a release change takes away
 * from them is what a confirmation has to say.
 */
export function VersionCallers({ toolId, version }: { toolId: string; version: string }) {
  const usage = useApi(routes.getVersionUsage, {
    params: { toolId, version },
    query: { window: '7d' },
  });
  if (usage.error !== undefined) {
    return (
      <span className="field-error">
        Usage of {version} unavailable: {describeError(usage.error)}
      </span>
    );
  }
  if (usage.data === undefined) return <span className="hint">Loading who calls {version}…</span>;
  const callers = usage.data.callers;
  if (callers.length === 0) return <span>Nobody called {version} in the last 7 days.</span>;
  const calls = callers.reduce((sum, caller) => sum + caller.calls, 0);
  const shown = callers.slice(0, 5);
  return (
    <span className="version-callers">
      {calls} call{calls === 1 ? '' : 's'} to {version} in the last 7 days from{' '}
      {shown.map((caller) => `${caller.key_name ?? caller.actor} (${caller.team_name})`).join(', ')}
      {callers.length > shown.length ? ` and ${callers.length - shown.length} more` : ''}.
    </span>
  );
}
