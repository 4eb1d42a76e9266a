import { ToolNameSchema } from '@toolgate/toolir';
import { z } from 'zod';

/**
 * Which version of a tool to serve: a version (`2.1.0`), a range (`^2.1`, `~2.1.3`), or the
 * release's `stable` / `canary` side. Exports and calls read it the same way.
 */
export const VersionSpecSchema = z.string().trim().min(1).max(100);

/** `snap_` and 22 base64url characters (132 bits of the SHA-256 of what the export resolved). */
export const SNAPSHOT_HANDLE_PATTERN = /^snap_[A-Za-z0-9_-]{22}$/;

/** The handle an export names its resolution by; a call that carries it runs those versions. */
export const SnapshotHandleSchema = z
  .string()
  .regex(SNAPSHOT_HANDLE_PATTERN, 'must be the `snapshot` of an export')
  .meta({
    description:
      'The `snapshot` an export answered with: the call runs each tool at the version that export showed the model (tools it did not include resolve as usual).',
    example: 'snap_3kTMd4pQz9WcJ0xR7b2NfA',
  });

/** Tool name -> version spec, for calls: what `?pin=name@spec` is for exports. */
export const CallPinsSchema = z
  .record(ToolNameSchema, VersionSpecSchema)
  .refine((pins) => Object.keys(pins).length <= 500, 'at most 500 pins')
  .meta({
    description:
      'Versions to run instead of the release, by tool name: `"2.1.0"`, `"^2.1"`, `"stable"` or `"canary"`. A pin wins over `snapshot` for its tool.',
    example: { get_weather: '1.0.0' },
  });

/** Who is asking, for canary bucketing: exports and calls bucket the same subject the same way. */
export const SubjectHeaderSchema = z.string().trim().min(1).max(256).optional();

export const SUBJECT_HEADER_DESCRIPTION =
  'Who is asking (a user, a session), for canary bucketing: the same subject always gets the same side, in exports and in calls. Default: the API key.';
