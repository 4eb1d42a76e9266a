import {
  ERROR_CODES,
  PROBLEM_CODES,
  problemExtensionsSchemaOf,
  type ProblemCode,
} from '@toolgate/toolir';
import { z } from 'zod';

/** The media type of every error answer (RFC 9457). */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** One problem with one input, addressed by a JSON Pointer into the request (`/body/name`, `/query/limit`). */
export const ProblemIssueSchema = z.object({
  path: z.string().meta({
    description: 'JSON Pointer into the request: /params/..., /query/..., /headers/..., /body/...',
  }),
  message: z.string(),
});
export type ProblemIssue = z.infer<typeof ProblemIssueSchema>;

export const ProblemCodeSchema = z.enum(PROBLEM_CODES as [ProblemCode, ...ProblemCode[]]);

/**
 * An RFC 9457 problem document, as every error of this API is shaped. Extension members a code
 * adds (`required_scopes`, `missing_secrets`, `breaking_changes`, ...) are kept, not refused.
 */
export const ProblemSchema = z
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: z.number().int().min(400).max(599),
    detail: z.string(),
    code: ProblemCodeSchema,
    instance: z.string().optional(),
    request_id: z.string().optional().meta({
      description: 'The x-request-id of the request; the server log has the details under it.',
    }),
    errors: z.array(ProblemIssueSchema),
  })
  .meta({ id: 'Problem', description: 'A problem document (RFC 9457).' });
export type Problem = z.infer<typeof ProblemSchema>;

/** What any route may answer, whatever it does: bad input, credentials, limits, outages. */
export const COMMON_PROBLEMS = [
  'invalid_request',
  'unauthenticated',
  'forbidden',
  'payload_too_large',
  'unsupported_media_type',
  'uri_too_long',
  'rate_limited',
  'unavailable',
  'internal',
] as const satisfies readonly ProblemCode[];

/** The problem codes of a route grouped by the status they are answered with. */
export function problemsByStatus(codes: readonly ProblemCode[]): Map<number, ProblemCode[]> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([left], [right]) => left - right));
}

const byCode = new Map<ProblemCode, z.ZodType>();

/**
 * The problem document of one code: its `code` fixed and its extension members (as the table of
 * error codes declares them) typed, registered as `<Code>Problem` in the OpenAPI document.
 */
export function problemSchemaOf(code: ProblemCode): z.ZodType {
  let schema = byCode.get(code);
  if (schema === undefined) {
    const name = code.replace(/(?:^|_)(\w)/g, (_, letter: string) => letter.toUpperCase());
    schema = ProblemSchema.extend({
      code: z.literal(code),
      ...problemExtensionsSchemaOf(code).shape,
    }).meta({ id: `${name}Problem`, description: ERROR_CODES[code].summary });
    byCode.set(code, schema);
  }
  return schema;
}
