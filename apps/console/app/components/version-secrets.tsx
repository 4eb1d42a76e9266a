'use client';

import { routes } from '@toolgate/contract';
import { isRecord } from '@toolgate/toolir';
import Link from 'next/link';
import { useApi } from './use-api';

/** The secret names a ToolIR's http or mcp executor references in its headers, in order. */
export function referencedSecrets(ir: unknown): string[] {
  if (!isRecord(ir) || !isRecord(ir['protocol_meta'])) return [];
  const toolgate = ir['protocol_meta']['toolgate'];
  const executor = isRecord(toolgate) ? toolgate['executor'] : undefined;
  const headers = isRecord(executor) ? executor['headers'] : undefined;
  if (!isRecord(headers)) return [];
  const names = Object.values(headers).flatMap((value) =>
    isRecord(value) && typeof value['secret'] === 'string' ? [value['secret']] : [],
  );
  return [...new Set(names)];
}

/** Which secrets a version needs and whether its team has each (the API refuses to publish otherwise). */
export function VersionSecrets({ ir, teamId }: { ir: unknown; teamId: string }) {
  const needed = referencedSecrets(ir);
  const secrets = useApi(
    routes.listSecrets,
    needed.length === 0 ? null : { query: { team_id: teamId } },
  );
  if (needed.length === 0) return null;
  const stored = new Set((secrets.data?.items ?? []).map((secret) => secret.name));
  return (
    <>
      <h4>Secrets</h4>
      {secrets.error !== undefined ? (
        <p className="hint">The team&apos;s secrets could not be read.</p>
      ) : null}
      <ul>
        {needed.map((name) => (
          <li key={name}>
            <code>{name}</code>{' '}
            {secrets.data === undefined ? null : stored.has(name) ? (
              <span className="badge status-succeeded">stored</span>
            ) : (
              <span className="badge status-failed">missing</span>
            )}
          </li>
        ))}
      </ul>
      {secrets.data !== undefined && needed.some((name) => !stored.has(name)) ? (
        <p className="hint">
          Calls fail until the missing secrets are stored on the{' '}
          <Link href="/secrets">Secrets</Link> page.
        </p>
      ) : null}
    </>
  );
}
