import { z } from 'zod';

const AnnotationsSchema = z.looseObject({
  audience: z.array(z.enum(['user', 'assistant'])).optional(),
  priority: z.number().min(0).max(1).optional(),
});

/**
 * A block of content in a tool result: the MCP content model, which every other wire can express.
 * Unknown fields (such as MCP `_meta`) are dropped rather than refused, so wire payloads read with it too.
 */
export const ContentBlockSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('text'),
    text: z.string(),
    annotations: AnnotationsSchema.optional(),
  }),
  z.object({
    type: z.literal('image'),
    /** Base64-encoded bytes. */
    data: z.string(),
    mimeType: z.string().min(1),
    annotations: AnnotationsSchema.optional(),
  }),
  z.object({
    type: z.literal('audio'),
    data: z.string(),
    mimeType: z.string().min(1),
    annotations: AnnotationsSchema.optional(),
  }),
  z.object({
    type: z.literal('resource_link'),
    uri: z.string().min(1),
    name: z.string().min(1),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
    size: z.number().int().nonnegative().optional(),
    annotations: AnnotationsSchema.optional(),
  }),
  z.object({
    type: z.literal('resource'),
    resource: z.union([
      z.object({ uri: z.string().min(1), mimeType: z.string().optional(), text: z.string() }),
      z.object({ uri: z.string().min(1), mimeType: z.string().optional(), blob: z.string() }),
    ]),
    annotations: AnnotationsSchema.optional(),
  }),
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

/** Why a call failed, in terms a model (and a person) can act on. */
export const ToolResultErrorSchema = z.strictObject({
  /**
   * Stable machine-readable code: one of RESULT_ERROR_CODES when Toolgate set it; a result read from
   * a wire may carry a tool's own code, so any code is accepted here.
   */
  code: z.string().min(1),
  message: z.string(),
  /** Whether calling again with the same arguments may succeed. */
  retryable: z.boolean(),
  details: z.unknown().optional(),
});
export type ToolResultError = z.infer<typeof ToolResultErrorSchema>;

/** The outcome of one tool call, in provider-neutral form. */
export const ToolResultIRSchema = z
  .strictObject({
    /** The `ToolCallIR.id` this result answers. */
    call_id: z.string().min(1),
    name: z.string().min(1),
    ok: z.boolean(),
    /** The structured result of a successful call. */
    data: z.unknown().optional(),
    /** Content blocks for wires that carry rich results (text, images, resources). */
    content: z.array(ContentBlockSchema).optional(),
    error: ToolResultErrorSchema.optional(),
    /** True when the result was cut to fit a budget; the full result stays retrievable. */
    truncated: z.boolean().optional(),
    /**
     * Notes from the gateway about the call for the app, beside the result (a spent soft budget at
     * `_meta.toolgate.budget`); MCP carries them as the CallToolResult's `_meta`.
     */
    _meta: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((result) => result.ok || result.error !== undefined, {
    message: 'a failed result (ok: false) must carry an error',
    path: ['error'],
  });
export type ToolResultIR = z.infer<typeof ToolResultIRSchema>;
