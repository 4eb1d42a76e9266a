'use client';

import { isRecord } from '@toolgate/toolir';

const CONSTRAINT_KEYS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
  'default',
  'const',
];

function typeOf(schema: Record<string, unknown>): string {
  const type = schema['type'];
  if (Array.isArray(type)) return type.join(' | ');
  if (typeof type === 'string') return type;
  if (Array.isArray(schema['enum'])) return 'enum';
  if (Array.isArray(schema['anyOf'])) return 'anyOf';
  if (Array.isArray(schema['oneOf'])) return 'oneOf';
  if (typeof schema['$ref'] === 'string') return schema['$ref'];
  return 'any';
}

function SchemaNode({
  name,
  schema,
  required,
}: {
  name: string;
  schema: unknown;
  required: boolean;
}) {
  if (!isRecord(schema)) return <li>{name}</li>;
  const properties = isRecord(schema['properties']) ? schema['properties'] : null;
  const requiredNames = Array.isArray(schema['required'])
    ? schema['required'].filter((item): item is string => typeof item === 'string')
    : [];
  const items = isRecord(schema['items']) ? schema['items'] : null;
  const constraints = CONSTRAINT_KEYS.filter((key) => schema[key] !== undefined);
  return (
    <li>
      <span className="param-name">{name}</span>{' '}
      <span className="param-type">{typeOf(schema)}</span>
      {required ? <span className="badge badge-required">required</span> : null}
      {Array.isArray(schema['enum']) ? (
        <span className="param-constraint">
          one of {schema['enum'].map((value) => JSON.stringify(value)).join(', ')}
        </span>
      ) : null}
      {constraints.map((key) => (
        <span key={key} className="param-constraint">
          {key}: {JSON.stringify(schema[key])}
        </span>
      ))}
      {typeof schema['description'] === 'string' ? (
        <p className="param-description">{schema['description']}</p>
      ) : null}
      {properties ? (
        <ul>
          {Object.entries(properties).map(([child, childSchema]) => (
            <SchemaNode
              key={child}
              name={child}
              schema={childSchema}
              required={requiredNames.includes(child)}
            />
          ))}
        </ul>
      ) : null}
      {items ? (
        <ul>
          <SchemaNode name="[items]" schema={items} required={false} />
        </ul>
      ) : null}
    </li>
  );
}

/** A JSON Schema object's properties as a readable tree: names, types, required, constraints. */
export function SchemaTree({ schema }: { schema: unknown }) {
  if (
    !isRecord(schema) ||
    !isRecord(schema['properties']) ||
    Object.keys(schema['properties']).length === 0
  ) {
    return <p className="hint">This tool takes no parameters.</p>;
  }
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  return (
    <ul className="schema-tree">
      {Object.entries(schema['properties']).map(([name, child]) => (
        <SchemaNode key={name} name={name} schema={child} required={required.includes(name)} />
      ))}
    </ul>
  );
}
