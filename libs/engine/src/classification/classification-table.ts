import { RESULT_ERROR_CODES, type ResultErrorCode } from '@toolgate/toolir';
import { z } from 'zod';
import type { FailureSignal } from './failure-signal';

/** Where a classified failure is handled: which pipeline layer owns it. */
export const ErrorLayerSchema = z.enum([
  'schema',
  'policy',
  'retry',
  'fallback',
  'return_to_model',
]);
/** Where a classified failure is handled. */
export type ErrorLayer = z.infer<typeof ErrorLayerSchema>;

const HttpStatusSchema = z.number().int().min(100).max(599);

/** Which failures a row matches: every field given must match; an empty match matches everything. */
export const ClassificationMatchSchema = z.strictObject({
  /** The failure's own code, e.g. `tool_error`. */
  code: z.string().min(1).optional(),
  /** One HTTP status or an inclusive range. */
  http_status: z
    .union([HttpStatusSchema, z.strictObject({ min: HttpStatusSchema, max: HttpStatusSchema })])
    .optional(),
  /** A network error code such as `ECONNRESET`. */
  network_code: z.string().min(1).optional(),
  /** Matches attempts that ran out of time. */
  timeout: z.boolean().optional(),
  /** Matches attempts cancelled by the caller. */
  aborted: z.boolean().optional(),
});
/** Which failures a row matches. */
export type ClassificationMatch = z.infer<typeof ClassificationMatchSchema>;

/** One row of the decision table: a match and what a matching failure means. */
export const ClassificationRowSchema = z.strictObject({
  match: ClassificationMatchSchema,
  /** The `error.code` of the normalized result: a result code of the table of error codes. */
  result_code: z.enum(RESULT_ERROR_CODES as [ResultErrorCode, ...ResultErrorCode[]]),
  layer: ErrorLayerSchema,
  /** Whether calling again with the same arguments may succeed (told to the model; drives retries). */
  retryable: z.boolean(),
  /** Whether the failure's own message may reach the model; otherwise `user_message` replaces it. */
  user_visible: z.boolean(),
  /** A short human-readable explanation for the result's `error.user_message`. */
  user_message: z.string().min(1).optional(),
});
/** One row of the decision table. */
export type ClassificationRow = z.infer<typeof ClassificationRowSchema>;

/** A whole decision table: rows are tried in order and the last row must match everything. */
export const ClassificationRowsSchema = z
  .array(ClassificationRowSchema)
  .min(1)
  .refine((rows) => {
    const last = rows[rows.length - 1];
    return last !== undefined && Object.keys(last.match).length === 0;
  }, 'the last row must be a catch-all (`match: {}`) so every failure is classified');

/** What the table says about one failure. */
export interface Classification {
  code: ResultErrorCode;
  layer: ErrorLayer;
  retryable: boolean;
  user_visible: boolean;
  user_message?: string;
  /** Index of the matching row, for logs and dashboards. */
  row: number;
  /** The table version the lookup read. */
  table_version: number;
}

/** The outcome of `reload`: the new version, or why the rows were rejected (the old table stays). */
export type ReloadResult =
  { ok: true; version: number } | { ok: false; errors: { path: string; message: string }[] };

function matches(match: ClassificationMatch, signal: FailureSignal): boolean {
  if (match.code !== undefined && match.code !== signal.code) return false;
  if (match.network_code !== undefined && match.network_code !== signal.network_code) return false;
  if (match.timeout !== undefined && match.timeout !== (signal.timeout === true)) return false;
  if (match.aborted !== undefined && match.aborted !== (signal.aborted === true)) return false;
  if (match.http_status !== undefined) {
    const status = signal.http_status;
    if (status === undefined) return false;
    if (typeof match.http_status === 'number') return status === match.http_status;
    return status >= match.http_status.min && status <= match.http_status.max;
  }
  return true;
}

/**
 * The error classification decision table, held as data: lookups read the current version,
 * `reload` swaps in new rows without a restart (after zod validation).
 */
export class ClassificationTable {
  private rows: readonly ClassificationRow[];
  private currentVersion = 1;

  constructor(rows: readonly ClassificationRow[]) {
    this.rows = ClassificationRowsSchema.parse(rows);
  }

  /** The version of the rows in use; starts at 1 and grows with every successful reload. */
  get version(): number {
    return this.currentVersion;
  }

  /** A copy of the rows in use. */
  snapshot(): ClassificationRow[] {
    return this.rows.map((row) => structuredClone(row));
  }

  /** Validates and swaps in new rows; invalid rows leave the current table untouched. */
  reload(rows: unknown): ReloadResult {
    const parsed = ClassificationRowsSchema.safeParse(rows);
    if (!parsed.success) {
      return {
        ok: false,
        errors: parsed.error.issues.map((issue) => ({
          path: `/${issue.path.map(String).join('/')}`,
          message: issue.message,
        })),
      };
    }
    this.rows = parsed.data;
    this.currentVersion += 1;
    return { ok: true, version: this.currentVersion };
  }

  /** Classifies one failure with the first matching row. */
  classify(signal: FailureSignal): Classification {
    const rows = this.rows;
    for (let index = 0; index < rows.length; index += 1) {
      const row = rows[index];
      if (row === undefined || !matches(row.match, signal)) continue;
      return {
        code: row.result_code,
        layer: row.layer,
        retryable: row.retryable,
        user_visible: row.user_visible,
        ...(row.user_message === undefined ? {} : { user_message: row.user_message }),
        row: index,
        table_version: this.currentVersion,
      };
    }
    // Unreachable with a validated table (the last row matches everything); kept for safety.
    return {
      code: 'internal',
      layer: 'return_to_model',
      retryable: false,
      user_visible: false,
      row: -1,
      table_version: this.currentVersion,
    };
  }
}
