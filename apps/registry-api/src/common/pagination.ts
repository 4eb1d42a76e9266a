import { z } from 'zod';

/** `?limit=` shared by every list route: 1-200, default 50. */
export const LimitSchema = z.coerce.number().int().min(1).max(200).default(50);

/** An opaque cursor: base64url of a small JSON value, so clients cannot depend on its shape. */
export function encodeCursor(value: Record<string, string>): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** Decodes a cursor with the schema it must match; null when it is not one of ours. */
export function decodeCursor<TSchema extends z.ZodType>(
  cursor: string,
  schema: TSchema,
): z.output<TSchema> | null {
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const CursorParamSchema = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be a cursor returned by this API');
