import { z } from 'zod';

/** `?limit=` shared by every list route: 1-200, default 50. */
export const LimitSchema = z.coerce
  .number()
  .int()
  .min(1)
  .max(200)
  .default(50)
  .meta({ description: 'Page size, 1-200.' });

/** An opaque cursor: clients pass back what `next_cursor` gave them and never read it. */
export const CursorParamSchema = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be a cursor returned by this API')
  .meta({ description: 'The `next_cursor` of the previous page.' });

/** A yes/no query parameter: exactly `true` or `false` (a typo is a 400, not a silent no). */
export function queryFlag(description: string) {
  return z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .meta({ description });
}

/** A `true` / `false` query parameter whose absence means "as each item says" (undefined). */
export function optionalQueryFlag(description: string) {
  return z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true'))
    .meta({ description });
}

/** One page of a cursor-paginated list; `next_cursor` is null on the last page. */
export function pageOf<TItem extends z.ZodType>(item: TItem) {
  return z.object({
    items: z.array(item),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as `?cursor=` for the next page; null on the last page.' }),
  });
}

/** An instant as the API writes it: ISO 8601 in UTC. */
export const TimestampSchema = z.iso.datetime({ offset: true });
