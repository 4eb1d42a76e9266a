import { z } from 'zod';
import { parseJsonPointer } from '../json-schema/json-pointer';

/**
 * A JSON Pointer into a finished call as the gateway sees it: `{arguments, result}`, so
 * `/result/order_id` is the `order_id` of the result's data and `/arguments/id` an argument.
 */
export const CallPointerSchema = z
  .string()
  .max(1024)
  .refine(
    (pointer) =>
      /^\/(arguments|result)(\/|$)/.test(pointer) && parseJsonPointer(pointer) !== undefined,
    'must be a JSON Pointer into the call: /arguments/... or /result/...',
  )
  .meta({
    description: 'A JSON Pointer into `{arguments, result}` of the call, e.g. `/result/order_id`.',
  });

/** A JSON Pointer into the arguments alone (where an expected version is written). */
export const ArgumentPointerSchema = z
  .string()
  .max(1024)
  .refine(
    (pointer) => pointer.startsWith('/') && parseJsonPointer(pointer) !== undefined,
    'must be a JSON Pointer into the arguments, e.g. /expected_version',
  );

/** Where one argument of a compensating call comes from. */
export const CompensationArgumentSchema = z.union([
  z.strictObject({
    from: CallPointerSchema.meta({
      description: 'Copied from the original call, e.g. `/result/order_id`.',
    }),
  }),
  z
    .strictObject({
      value: z.unknown().meta({ description: 'A fixed JSON value, e.g. a reason text.' }),
    })
    .refine((source) => source.value !== undefined, 'must give `from` or `value`'),
]);
export type CompensationArgument = z.infer<typeof CompensationArgumentSchema>;

/**
 * How a completed call is undone: the compensating tool and how to build its arguments from the
 * original call and its result (e.g. `create_order` -> `cancel_order {order_id: /result/order_id}`).
 */
export const ToolCompensationSchema = z
  .strictObject({
    tool: z.string().min(1).max(256).meta({ description: 'The compensating tool, by name.' }),
    version: z.string().trim().min(1).max(100).optional().meta({
      description: 'A version or range of the compensating tool; absent means the one served.',
    }),
    arguments: z.record(z.string().min(1).max(256), CompensationArgumentSchema).meta({
      description: "The compensating call's arguments, each copied from the call or fixed.",
    }),
  })
  .meta({
    description:
      'How a completed call of this tool is undone, run in reverse order after a partial failure of a run; a write without it is reported as one that cannot be undone.',
  });
export type ToolCompensation = z.infer<typeof ToolCompensationSchema>;

/** Where a write tool expects the resource version it last saw. */
export const ExpectedVersionTargetSchema = z.union([
  z.strictObject({
    header: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be an HTTP header name')
      .meta({ description: 'An HTTP request header of the `http` executor, e.g. `If-Match`.' }),
  }),
  z.strictObject({
    argument: ArgumentPointerSchema.meta({
      description: 'An argument the version is written into, e.g. `/expected_version`.',
    }),
  }),
]);
export type ExpectedVersionTarget = z.infer<typeof ExpectedVersionTargetSchema>;

/**
 * Optimistic concurrency: which resource a call touches, where its result carries the resource's
 * version, and where a later write expects the version the gateway last saw.
 */
export const ToolConcurrencySchema = z
  .strictObject({
    resource: z
      .strictObject({
        type: z
          .string()
          .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be 1-64 lower-case letters, digits or . _ -')
          .meta({
            description:
              'The kind of resource; tools that touch the same resource declare the same type, e.g. `order`.',
          }),
        id: CallPointerSchema.meta({
          description: 'Where the call names the resource, e.g. `/arguments/order_id`.',
        }),
      })
      .meta({ description: 'The resource key is `type:id`.' }),
    version: z
      .union([
        CallPointerSchema,
        z.strictObject({
          header: z
            .string()
            .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be an HTTP header name')
            .meta({ description: 'A response header of the `http` executor, e.g. `ETag`.' }),
        }),
      ])
      .meta({
        description:
          'Where a successful call reports the resource version: a pointer such as `/result/etag`, or a response header.',
      }),
    expected: ExpectedVersionTargetSchema.optional().meta({
      description:
        'Where a write carries the version it expects; absent for tools that only read the version.',
    }),
  })
  .meta({
    description:
      'Optimistic concurrency for writes: a later call on the same resource carries the version last seen, and a 409/412 comes back as `conflict` with the current version, never retried.',
  });
export type ToolConcurrency = z.infer<typeof ToolConcurrencySchema>;
