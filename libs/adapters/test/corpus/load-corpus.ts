import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ToolInputFormatSchema } from '@toolgate/toolir';
import { z } from 'zod';
import type { CorpusCase } from './corpus-case';
import { buildCorpus } from './corpus-table';

const CASES_DIR = path.join(import.meta.dirname, 'cases');
/** Every entry the corpus folder may hold; anything else is a folder the harness cannot map. */
export const CORPUS_ENTRIES = new Set([
  'cases',
  'corpus-case.ts',
  'corpus-table.ts',
  'load-corpus.ts',
]);

const CorpusCaseSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  input_format: ToolInputFormatSchema.optional(),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  valid: z.array(z.record(z.string(), z.unknown())).min(1),
  invalid: z.array(z.unknown()),
});

/** The generated table plus every `cases/*.json`; a file that is not a case throws (no silent skips). */
export function loadCorpus(): CorpusCase[] {
  const files = readdirSync(CASES_DIR).sort();
  const fromFiles = files.map((file) => {
    if (!file.endsWith('.json'))
      throw new Error(`corpus/cases/${file}: only *.json cases are understood`);
    const parsed = CorpusCaseSchema.safeParse(
      JSON.parse(readFileSync(path.join(CASES_DIR, file), 'utf8')),
    );
    if (!parsed.success) throw new Error(`corpus/cases/${file}: ${parsed.error.message}`);
    const { outputSchema, input_format: inputFormat, ...rest } = parsed.data;
    return {
      ...rest,
      ...(outputSchema === undefined ? {} : { outputSchema }),
      ...(inputFormat === undefined ? {} : { input_format: inputFormat }),
    };
  });
  const cases = [...buildCorpus(), ...fromFiles];
  const ids = new Set<string>();
  for (const corpusCase of cases) {
    if (ids.has(corpusCase.id)) throw new Error(`duplicate corpus case id ${corpusCase.id}`);
    ids.add(corpusCase.id);
  }
  return cases;
}

/** The folder listing, for the "nothing unmapped" check. */
export function corpusEntries(): string[] {
  return readdirSync(import.meta.dirname);
}
