import { z } from 'zod';

/** One tool call made by a model, in provider-neutral form. */
export const ToolCallIRSchema = z.strictObject({
  /** Toolgate's id of the call; adapters use the provider's id when it has one. */
  id: z.string().min(1),
  /** The tool's name as in its ToolIR (wire names mapped back). */
  name: z.string().min(1),
  /** The parsed arguments. */
  arguments: z.record(z.string(), z.unknown()),
  /** The arguments exactly as the provider sent them, when they came as text. */
  raw_arguments: z.string().optional(),
  /** The provider's own id of the call, when it differs from `id` (sanitized or synthesized). */
  provider_call_id: z.string().optional(),
  /** The tool version the call resolved to. */
  tool_version: z.string().optional(),
});
export type ToolCallIR = z.infer<typeof ToolCallIRSchema>;
