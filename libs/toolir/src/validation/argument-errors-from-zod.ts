import type { z } from 'zod';
import { toJsonPointer } from '../ir/parse-tool-ir';
import type { ArgumentError } from './argument-error';

/** Marks a zod issue that carries an IR validator error as it is (see `zodFromToolIR`). */
export const VALIDATOR_ISSUE = 'toolgate.validator';

/** zod's issues as argument errors: a validator's error as it was, zod's own worded like one. */
export function argumentErrorsFromZod(error: z.ZodError): ArgumentError[] {
  return error.issues.map((issue) => {
    const path = toJsonPointer(issue.path);
    if (issue.code === 'custom' && issue.params?.['source'] === VALIDATOR_ISSUE) {
      const { source: _source, keyword, ...params } = issue.params;
      return {
        path,
        keyword: typeof keyword === 'string' ? keyword : 'custom',
        message: issue.message,
        ...(Object.keys(params).length === 0 ? {} : { params }),
      };
    }
    return { path, keyword: issue.code, message: `${path} ${issue.message}` };
  });
}
