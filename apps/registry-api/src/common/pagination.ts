import { z } from 'zod';

export { CursorParamSchema, LimitSchema } from '@toolgate/contract';

/** An opaque cursor: base64url of a small JSON value, so clients cannot depend on its shape. */
export function encodeCursor(value: Record<string, string>): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/**
 * One page of a keyset read that asked for `limit + 1` rows: the first `limit`, and the cursor
 * after the last of them when the extra row shows that more follow.
 */
export function pageOfRows<TRow>(
  rows: readonly TRow[],
  limit: number,
  positionOf: (last: TRow) => Record<string, string>,
): { rows: TRow[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(positionOf(last)) : null,
  };
}

/** Where a page ordered by (created_at desc, id) ends: calls and runs continue after it. */
export function createdPositionOf(row: { createdAt: Date; id: string }): Record<string, string> {
  return { created_at: row.createdAt.toISOString(), id: row.id };
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

/** Where a page of tools by (name, id) ends: tool lists and exports continue after it. */
export const ToolPositionCursorSchema = z.strictObject({ name: z.string(), id: z.uuid() });

/**
 * Where a page of text matches ends: pages follow (rank desc, name, id), `rank` as the exact text
 * of its number; `query` is the searchQueryKey of the query the page answered.
 */
export const SearchPositionCursorSchema = z.strictObject({
  query: z.string(),
  rank: z.string().transform(Number).pipe(z.number().finite()),
  name: z.string(),
  id: z.uuid(),
});
