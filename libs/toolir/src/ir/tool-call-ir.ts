import { z } from 'zod';

/** One tool call made by a model, in provider-neutral form. */
export const ToolCallIRSchema = z.strictObject({
  id: z.string().min(1).meta({
    description: "Toolgate's id of the call; adapters use the provider's id when it has one.",
  }),
  name: z
    .string()
    .min(1)
    .meta({ description: "The tool's name as in its ToolIR (wire names mapped back)." }),
  arguments: z.record(z.string(), z.unknown()).meta({ description: 'The parsed arguments.' }),
  raw_arguments: z.string().optional().meta({
    description: 'The arguments exactly as the provider sent them, when they came as text.',
  }),
  cut: z.literal(true).optional().meta({
    description:
      'The output ended inside the arguments (the model hit its token limit): `raw_arguments` holds the text that arrived and `arguments` means nothing. The gateway completes such a call only for a tool version that opts in (`repair_cut_arguments`); otherwise it is answered `incomplete_arguments`.',
  }),
  input_format: z.literal('text').optional().meta({
    description:
      'Set on a call of a free-text tool: `arguments.input` holds the text, which OpenAI wires carry as a custom tool call.',
  }),
  provider_call_id: z.string().optional().meta({
    description:
      "The provider's own id of the call, when it differs from `id` (sanitized or synthesized).",
  }),
  tool_version: z
    .string()
    .optional()
    .meta({ description: 'The tool version the call resolved to.' }),
});
export type ToolCallIR = z.infer<typeof ToolCallIRSchema>;
