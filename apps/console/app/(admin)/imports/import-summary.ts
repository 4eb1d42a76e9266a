import type {
  ImportedTool,
  McpBehaviorDefaults,
  McpServerSync,
  OpenApiImport,
} from '@toolgate/contract';

/** One line of an import's answer: a tool it writes, leaves alone, deprecates or skips. */
export interface ImportRow {
  name: string;
  outcome: 'import' | 'unchanged' | 'removed' | 'skipped';
  /** What happens to the tool, or why it is skipped. */
  detail: string;
  warnings: string[];
  needsApproval: boolean;
}

export interface ImportSummary {
  rows: ImportRow[];
  /** Tools the import leaves in the catalog (imported or unchanged), skipped and removed ones aside. */
  total: number;
  needingApproval: number;
}

function actionText(tool: ImportedTool): string {
  const status = tool.status === 'published' ? 'published' : 'draft';
  switch (tool.action) {
    case 'created':
      return `new tool at ${tool.version} (${status})`;
    case 'new_version':
      return `${tool.previous_version ?? '—'} → ${tool.version}${tool.bump ? ` (${tool.bump})` : ''}, ${status}`;
    case 'published_draft':
      return `publishes draft ${tool.version}`;
    case 'unchanged':
      return `unchanged at ${tool.version}`;
  }
}

function toolRow(tool: ImportedTool): ImportRow {
  const missing = tool.secrets.filter((secret) => !secret.set).map((secret) => secret.name);
  return {
    name: tool.name,
    outcome: tool.action === 'unchanged' ? 'unchanged' : 'import',
    detail:
      actionText(tool) +
      (missing.length === 0 ? '' : `; calls fail until ${missing.join(', ')} is stored`),
    warnings: tool.warnings,
    needsApproval: tool.needs_approval,
  };
}

function summarize(tools: ImportRow[], others: ImportRow[]): ImportSummary {
  return {
    rows: [...tools, ...others],
    total: tools.length,
    needingApproval: tools.filter((row) => row.needsApproval).length,
  };
}

/** An OpenAPI import (or its dry run), tool by tool, then the operations it skipped. */
export function summarizeOpenApiImport(answer: OpenApiImport): ImportSummary {
  return summarize(
    answer.tools.map((tool) => {
      const row = toolRow(tool);
      return { ...row, detail: `${tool.operation.method} ${tool.operation.path}: ${row.detail}` };
    }),
    answer.skipped.map((operation) => ({
      name: operation.operation_id ?? `${operation.method} ${operation.path}`,
      outcome: 'skipped',
      detail: operation.reason,
      warnings: [],
      needsApproval: false,
    })),
  );
}

/**
 * An MCP server's registration or sync. The count of tools needing approval is the API's own
 * (`tools_needing_approval` also counts unchanged tools, which the answer lists without details).
 */
export function summarizeMcpSync(answer: McpServerSync): ImportSummary {
  const tools: ImportRow[] = [
    ...[...answer.added, ...answer.changed].map(toolRow),
    ...answer.unchanged.map((tool) => ({
      name: tool.name,
      outcome: 'unchanged' as const,
      detail: `unchanged at ${tool.version}`,
      warnings: [],
      needsApproval: false,
    })),
  ];
  const summary = summarize(tools, [
    ...answer.removed.map((tool) => ({
      name: tool.name,
      outcome: 'removed' as const,
      detail: `gone upstream: ${tool.deprecated_versions.join(', ')} deprecated until ${tool.sunset_at}`,
      warnings: [],
      needsApproval: false,
    })),
    ...answer.skipped.map((tool) => ({
      name: tool.upstream_name,
      outcome: 'skipped' as const,
      detail: tool.reason,
      warnings: [],
      needsApproval: false,
    })),
  ]);
  return { ...summary, needingApproval: answer.tools_needing_approval };
}

/** The sentence the page puts first: how many calls will wait for a person. */
export function approvalSentence({ total, needingApproval }: ImportSummary): string {
  if (total === 0) return 'No tool will be imported.';
  const noun = total === 1 ? 'tool' : 'tools';
  return `${needingApproval} of ${total} ${noun} will wait for a person's approval on every call.`;
}

/** A behavior default as the form holds it: unset keeps MCP's own default for that hint. */
export type DefaultChoice = '' | 'yes' | 'no';

export interface DefaultChoices {
  read_only: DefaultChoice;
  destructive: DefaultChoice;
  idempotent: DefaultChoice;
  open_world: DefaultChoice;
}

/** The `defaults` the API takes, or undefined when every hint keeps MCP's default. */
export function behaviorDefaults(choices: DefaultChoices): McpBehaviorDefaults | undefined {
  const defaults: McpBehaviorDefaults = {};
  for (const key of Object.keys(choices) as (keyof DefaultChoices)[]) {
    const choice = choices[key];
    if (choice !== '') defaults[key] = choice === 'yes';
  }
  return Object.keys(defaults).length === 0 ? undefined : defaults;
}
