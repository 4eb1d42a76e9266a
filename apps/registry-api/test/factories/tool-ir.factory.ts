import type { ToolIRInput } from '@toolgate/toolir';

/** Builds ToolIR documents for tests: `ToolIRFactory.from({ id, name }).version('1.1.0').property(...).build()`. */
export class ToolIRFactory {
  private constructor(private readonly ir: ToolIRInput) {}

  static from(fields: {
    id: string;
    name: string;
    description?: string;
    tags?: string[];
  }): ToolIRFactory {
    return new ToolIRFactory({
      schema_version: '1.0',
      id: fields.id,
      name: fields.name,
      version: '1.0.0',
      description: fields.description ?? `The ${fields.name} tool.`,
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', minLength: 1 } },
        required: ['query'],
      },
      behavior: { readonly: true, destructive: false, idempotent: true },
      constraints: { timeout_ms: 5_000 },
      ...(fields.tags ? { tags: fields.tags } : {}),
    });
  }

  version(version: string): ToolIRFactory {
    return new ToolIRFactory({ ...this.ir, version });
  }

  parameters(parameters: Record<string, unknown>): ToolIRFactory {
    return new ToolIRFactory({ ...this.ir, parameters });
  }

  with(fields: Partial<ToolIRInput>): ToolIRFactory {
    return new ToolIRFactory({ ...this.ir, ...fields });
  }

  build(): ToolIRInput {
    return structuredClone(this.ir);
  }
}
