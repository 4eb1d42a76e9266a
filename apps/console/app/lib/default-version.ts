import type { ToolVersion } from '@toolgate/contract';

/**
 * The version a reader should see first: the stable one, else the newest published one; a draft
 * only when nothing else exists (a draft is work in progress, not what callers get).
 * `versions` are newest first, as the API lists them.
 */
export function defaultVersion(
  versions: ReadonlyArray<Pick<ToolVersion, 'version' | 'status'>>,
  stable: string | null | undefined,
): string | null {
  if (stable && versions.some((version) => version.version === stable)) return stable;
  return (
    versions.find((version) => version.status === 'published')?.version ??
    versions[0]?.version ??
    null
  );
}
