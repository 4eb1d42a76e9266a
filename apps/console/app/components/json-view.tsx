'use client';

import { isRecord } from '@toolgate/toolir';
import type { ReactNode } from 'react';

// Argument names and values that usually mean "this changes or removes data": worth a second look.
const DESTRUCTIVE_KEY =
  /(delete|drop|remove|destroy|purge|truncate|wipe|force|overwrite|cascade|refund|amount|transfer|shutdown|terminate)/i;
const DESTRUCTIVE_VALUE = /\b(drop|delete|truncate|rm -rf|destroy|shutdown)\b/i;

/** True when an argument key or value looks like it changes or removes data. */
export function isDestructiveField(key: string, value: unknown): boolean {
  return DESTRUCTIVE_KEY.test(key) || (typeof value === 'string' && DESTRUCTIVE_VALUE.test(value));
}

function render(value: unknown, indent: number, highlight: boolean): ReactNode {
  const pad = '  '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return (
      <>
        {'[\n'}
        {value.map((item, index) => (
          <span key={index}>
            {pad}
            {'  '}
            {render(item, indent + 1, highlight)}
            {index < value.length - 1 ? ',\n' : '\n'}
          </span>
        ))}
        {pad}
        {']'}
      </>
    );
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return (
      <>
        {'{\n'}
        {entries.map(([key, item], index) => {
          const marked = highlight && isDestructiveField(key, item);
          return (
            <span
              key={key}
              className={marked ? 'json-destructive' : undefined}
              title={marked ? 'Looks destructive: check before approving' : undefined}
            >
              {pad}
              {'  '}
              <span className="json-key">{JSON.stringify(key)}</span>:{' '}
              {render(item, indent + 1, highlight)}
              {index < entries.length - 1 ? ',\n' : '\n'}
            </span>
          );
        })}
        {pad}
        {'}'}
      </>
    );
  }
  return (
    <span className={`json-${value === null ? 'null' : typeof value}`}>
      {JSON.stringify(value) ?? 'undefined'}
    </span>
  );
}

/** Pretty-printed JSON; with `highlightDestructive`, fields that look destructive stand out. */
export function JsonView({
  value,
  highlightDestructive = false,
  label,
}: {
  value: unknown;
  highlightDestructive?: boolean;
  label?: string;
}) {
  return (
    <pre className="json" aria-label={label} tabIndex={0}>
      {render(value, 0, highlightDestructive)}
    </pre>
  );
}
