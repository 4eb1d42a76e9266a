import { describe, expect, it } from 'vitest';
import * as toolir from './index';

describe('@toolgate/toolir public surface', () => {
  it.each([
    'parseToolIR',
    'safeParseToolIR',
    'validateArguments',
    'compileValidator',
    'clearValidatorCache',
    'describeArgumentErrors',
    'toInvalidArgumentsError',
    'normalizeSchema',
    'schemaKeywords',
    'findUnguardedCycles',
    'walkSchema',
    'mapSchema',
    'checkJsonSchema',
    'defineTool',
    'compareVersions',
    'resolveVersion',
    'canaryBucket',
    'uuidV5',
    'canonicalJson',
    'cloneJson',
    'toToolgateError',
    'runsInline',
    'zodFromToolIR',
  ])('exports the function %s', (name) => {
    expect(typeof (toolir as Record<string, unknown>)[name]).toBe('function');
  });

  it('exports the error classes', () => {
    expect(new toolir.ToolIRError([])).toBeInstanceOf(toolir.ToolgateError);
  });
});
