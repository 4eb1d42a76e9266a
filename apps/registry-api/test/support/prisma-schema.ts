import { readFileSync } from 'node:fs';
import path from 'node:path';

export const SCHEMA_PATH = path.resolve(import.meta.dirname, '../../../../prisma/schema.prisma');

export interface PrismaColumn {
  table: string;
  column: string;
  /** The Prisma scalar or enum type, `Unsupported(...)` as written. */
  type: string;
  nullable: boolean;
  list: boolean;
  nativeType: string | null;
}

export interface PrismaSchemaSummary {
  columns: PrismaColumn[];
  enums: Map<string, { dbName: string; values: string[] }>;
  /** Unique column sets per table (from @id, @unique and @@unique), as `col1,col2`. */
  uniques: Map<string, string[]>;
}

const BLOCK = /^(model|enum)\s+(\w+)\s*\{([\s\S]*?)^\}/gm;

/**
 * Reads the parts of schema.prisma the database must agree with. A deliberately small parser
 * for this repository's own schema (one field per line, no multi-line attributes).
 */
export function readPrismaSchema(source = readFileSync(SCHEMA_PATH, 'utf8')): PrismaSchemaSummary {
  const blocks = [...source.matchAll(BLOCK)].map((match) => ({
    kind: match[1]!,
    name: match[2]!,
    body: match[3]!,
  }));
  const enums = new Map<string, { dbName: string; values: string[] }>();
  for (const block of blocks.filter((entry) => entry.kind === 'enum')) {
    const lines = block.body
      .split('\n')
      .map((line) => line.replace(/\/\/.*$/, '').trim())
      .filter(Boolean);
    const dbName = /@@map\("([^"]+)"\)/.exec(block.body)?.[1] ?? block.name;
    enums.set(block.name, { dbName, values: lines.filter((line) => !line.startsWith('@@')) });
  }
  const models = new Set(
    blocks.filter((entry) => entry.kind === 'model').map((entry) => entry.name),
  );
  const columns: PrismaColumn[] = [];
  const uniques = new Map<string, string[]>();
  for (const block of blocks.filter((entry) => entry.kind === 'model')) {
    const table = /@@map\("([^"]+)"\)/.exec(block.body)?.[1] ?? block.name;
    const fieldToColumn = new Map<string, string>();
    const tableUniques: string[] = [];
    for (const raw of block.body.split('\n')) {
      const line = raw.replace(/\/\/.*$/, '').trim();
      if (line === '' || line.startsWith('@@')) continue;
      const match = /^(\w+)\s+(Unsupported\("[^"]+"\)|\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!match) continue;
      const [, field, type, list, optional, attributes] = match;
      if (models.has(type!)) continue; // relation field: no column
      const column = /@map\("([^"]+)"\)/.exec(attributes!)?.[1] ?? field!;
      fieldToColumn.set(field!, column);
      columns.push({
        table,
        column,
        type: type!,
        nullable: optional === '?',
        list: list === '[]',
        nativeType: /@db\.(\w+)/.exec(attributes!)?.[1] ?? null,
      });
      if (/@id\b|@unique\b/.test(attributes!)) tableUniques.push(column);
    }
    for (const match of block.body.matchAll(/@@(?:unique|id)\(\[([^\]]+)\]/g)) {
      tableUniques.push(
        match[1]!
          .split(',')
          .map((field) => fieldToColumn.get(field.trim()) ?? field.trim())
          .join(','),
      );
    }
    uniques.set(table, tableUniques);
  }
  return { columns, enums, uniques };
}

/** The information_schema data_type Postgres reports for a Prisma column. */
export function expectedDataType(column: PrismaColumn, enumNames: ReadonlySet<string>): string {
  if (column.list) return 'ARRAY';
  if (enumNames.has(column.type)) return 'USER-DEFINED';
  if (column.type.startsWith('Unsupported(')) return 'tsvector';
  switch (column.type) {
    case 'String':
      return column.nativeType === 'Uuid' ? 'uuid' : 'text';
    case 'Int':
      return 'integer';
    case 'BigInt':
      return 'bigint';
    case 'Boolean':
      return 'boolean';
    case 'DateTime':
      return column.nativeType === 'Timestamptz'
        ? 'timestamp with time zone'
        : 'timestamp without time zone';
    case 'Json':
      return column.nativeType === 'JsonB' ? 'jsonb' : 'json';
    case 'Float':
      return 'double precision';
    default:
      return `unknown Prisma type ${column.type}`;
  }
}
