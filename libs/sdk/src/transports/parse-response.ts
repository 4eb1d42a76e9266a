import { issuesFromZod } from '@toolgate/toolir';
import type { z } from 'zod';
import { ToolgateInvalidResponseError } from '../errors/toolgate-sdk-error';

/**
 * Reads a value the SDK did not produce (a provider's response, the caller's request) with a
 * schema; a value of another shape becomes a typed `ToolgateInvalidResponseError` listing every
 * issue. Gateway answers are read with their routes instead (`readGatewayAnswer`).
 */
export function parseResponse<TSchema extends z.ZodType>(
  schema: TSchema,
  value: unknown,
  what: string,
): z.output<TSchema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = issuesFromZod(parsed.error).map((issue) => `${issue.path}: ${issue.message}`);
  throw new ToolgateInvalidResponseError(`${what} has an unexpected shape: ${issues.join('; ')}`, {
    issues,
  });
}
