import type { JsonSchema } from '@toolgate/toolir';
import type { CorpusCase } from './corpus-case';

/** A kind of property: its schema, values it accepts and values it rejects. */
interface PropertyKind {
  kind: string;
  schema: unknown;
  valid: unknown[];
  invalid: unknown[];
  /** Definitions the schema refers to. */
  defs?: Record<string, unknown>;
}

const KINDS: PropertyKind[] = [
  {
    kind: 'string',
    schema: { type: 'string', description: 'Any text.' },
    valid: ['a', ''],
    invalid: [1, null],
  },
  {
    kind: 'string-length',
    schema: { type: 'string', minLength: 2, maxLength: 5 },
    valid: ['ab', 'abcde'],
    invalid: ['a', 'abcdef'],
  },
  {
    kind: 'string-pattern',
    schema: { type: 'string', pattern: '^[A-Z]{3}$' },
    valid: ['EUR'],
    invalid: ['eur', 'EURO'],
  },
  {
    kind: 'format-email',
    schema: { type: 'string', format: 'email' },
    valid: ['a@b.co'],
    invalid: ['not-an-email'],
  },
  {
    kind: 'format-date-time',
    schema: { type: 'string', format: 'date-time' },
    valid: ['2026-01-02T03:04:05Z'],
    invalid: ['yesterday'],
  },
  {
    kind: 'format-uuid',
    schema: { type: 'string', format: 'uuid' },
    valid: ['0b6f3f5e-3c1a-4c39-9f4e-2f1f7b1d2a10'],
    invalid: ['1234'],
  },
  {
    kind: 'format-uri',
    schema: { type: 'string', format: 'uri' },
    valid: ['https://example.com/x'],
    invalid: ['not a uri'],
  },
  {
    kind: 'format-date',
    schema: { type: 'string', format: 'date' },
    valid: ['2026-11-29'],
    invalid: ['29/11/2026'],
  },
  {
    kind: 'integer-range',
    schema: { type: 'integer', minimum: 1, maximum: 10 },
    valid: [1, 10],
    invalid: [0, 11, 1.5],
  },
  {
    kind: 'number-exclusive',
    schema: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    valid: [0.5],
    invalid: [0, 1],
  },
  {
    kind: 'number-multiple',
    schema: { type: 'number', multipleOf: 0.5 },
    valid: [1.5],
    invalid: [1.2],
  },
  { kind: 'boolean', schema: { type: 'boolean' }, valid: [true, false], invalid: ['true'] },
  {
    kind: 'enum-string',
    schema: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    valid: ['celsius'],
    invalid: ['kelvin'],
  },
  {
    kind: 'enum-integer',
    schema: { type: 'integer', enum: [1, 2, 3] },
    valid: [2],
    invalid: [4, '2'],
  },
  { kind: 'enum-number', schema: { type: 'number', enum: [0.5, 1.5] }, valid: [0.5], invalid: [1] },
  { kind: 'enum-mixed', schema: { enum: ['a', 1] }, valid: ['a', 1], invalid: ['b'] },
  {
    kind: 'enum-empty-string',
    schema: { type: 'string', enum: ['', 'x'] },
    valid: ['x', ''],
    invalid: ['y'],
  },
  {
    kind: 'enum-with-null',
    schema: { enum: ['a', 'b', null] },
    valid: ['a', null],
    invalid: ['c'],
  },
  {
    kind: 'enum-boolean',
    schema: { type: 'boolean', enum: [true] },
    valid: [true],
    invalid: [false],
  },
  { kind: 'const-string', schema: { const: 'fixed' }, valid: ['fixed'], invalid: ['other'] },
  { kind: 'const-true', schema: { const: true }, valid: [true], invalid: [false] },
  { kind: 'const-null', schema: { const: null }, valid: [null], invalid: ['x'] },
  {
    kind: 'nullable-type-array',
    schema: { type: ['string', 'null'] },
    valid: ['a', null],
    invalid: [1],
  },
  {
    kind: 'nullable-any-of',
    schema: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    valid: [3, null],
    invalid: ['3'],
  },
  { kind: 'type-union', schema: { type: ['string', 'number'] }, valid: ['a', 2], invalid: [true] },
  {
    kind: 'any-of-objects',
    schema: {
      anyOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'integer' } }, required: ['b'] },
      ],
    },
    valid: [{ a: 'x' }, { b: 1 }],
    invalid: [{ c: 1 }],
  },
  {
    kind: 'one-of',
    schema: {
      oneOf: [
        { type: 'string', maxLength: 3 },
        { type: 'string', minLength: 2 },
      ],
    },
    valid: ['a', 'abcd'],
    invalid: ['ab', 1],
  },
  {
    kind: 'all-of',
    schema: {
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'integer' } }, required: ['b'] },
      ],
    },
    valid: [{ a: 'x', b: 1 }],
    invalid: [{ a: 'x' }],
  },
  {
    kind: 'array-strings',
    schema: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
    valid: [['a'], ['a', 'b', 'c']],
    invalid: [[], ['a', 'b', 'c', 'd'], [1]],
  },
  {
    kind: 'array-unique',
    schema: { type: 'array', items: { type: 'integer' }, uniqueItems: true },
    valid: [[1, 2]],
    invalid: [[1, 1]],
  },
  {
    kind: 'array-of-objects',
    schema: {
      type: 'array',
      items: {
        type: 'object',
        properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
        required: ['sku', 'qty'],
      },
    },
    valid: [[{ sku: 'a', qty: 1 }]],
    invalid: [[{ sku: 'a' }], [{ sku: 'a', qty: 0 }]],
  },
  { kind: 'array-any-items', schema: { type: 'array' }, valid: [[1, 'a']], invalid: ['x'] },
  {
    kind: 'tuple',
    schema: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
    valid: [[1, 2]],
    invalid: [[1, 2, 3], ['a']],
  },
  {
    kind: 'nested-object',
    schema: {
      type: 'object',
      properties: {
        address: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            geo: {
              type: 'object',
              properties: { lat: { type: 'number' }, lng: { type: 'number' } },
              required: ['lat', 'lng'],
            },
          },
          required: ['city'],
        },
      },
      required: ['address'],
    },
    valid: [{ address: { city: 'Oslo' } }, { address: { city: 'Oslo', geo: { lat: 1, lng: 2 } } }],
    invalid: [{ address: {} }, { address: { city: 'Oslo', geo: { lat: 1 } } }],
  },
  {
    kind: 'closed-object',
    schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
    valid: [{ a: 'x' }, {}],
    invalid: [{ a: 'x', b: 1 }],
  },
  {
    kind: 'map',
    schema: { type: 'object', additionalProperties: { type: 'integer' } },
    valid: [{ x: 1 }],
    invalid: [{ x: 'a' }],
  },
  {
    kind: 'empty-object',
    schema: { type: 'object', properties: {} },
    valid: [{}, { any: 1 }],
    invalid: ['x'],
  },
  {
    kind: 'default',
    schema: { type: 'integer', default: 10, minimum: 0 },
    valid: [0],
    invalid: [-1],
  },
  {
    kind: 'examples',
    schema: { type: 'string', examples: ['alpha', 'beta'] },
    valid: ['x'],
    invalid: [1],
  },
  { kind: 'deprecated', schema: { type: 'string', deprecated: true }, valid: ['x'], invalid: [2] },
  {
    kind: 'ref-def',
    schema: { $ref: '#/$defs/Money' },
    defs: {
      Money: {
        type: 'object',
        properties: {
          amount: { type: 'number' },
          currency: { type: 'string', enum: ['EUR', 'USD'] },
        },
        required: ['amount', 'currency'],
      },
    },
    valid: [{ amount: 1, currency: 'EUR' }],
    invalid: [{ amount: 1 }, { amount: 1, currency: 'GBP' }],
  },
  {
    kind: 'ref-with-siblings',
    schema: { $ref: '#/$defs/Name', description: 'Who.' },
    defs: { Name: { type: 'string', minLength: 1 } },
    valid: ['x'],
    invalid: ['', 1],
  },
  {
    kind: 'recursive-ref',
    schema: { $ref: '#/$defs/Node' },
    defs: {
      Node: {
        type: 'object',
        properties: {
          label: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/$defs/Node' } },
        },
        required: ['label'],
      },
    },
    valid: [{ label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] }],
    invalid: [
      { children: [] },
      { label: 'a', children: [{ label: 'b', children: [{ label: 1 }] }] },
    ],
  },
  { kind: 'boolean-true', schema: true, valid: [1, 'x', null], invalid: [] },
  {
    kind: 'not',
    schema: { type: 'string', not: { const: 'forbidden' } },
    valid: ['ok'],
    invalid: ['forbidden'],
  },
  {
    kind: 'if-then-else',
    schema: {
      type: 'object',
      properties: { kind: { type: 'string' }, n: { type: 'integer' } },
      if: { properties: { kind: { const: 'count' } } },
      then: { required: ['n'] },
    },
    valid: [{ kind: 'count', n: 1 }, { kind: 'other' }],
    invalid: [{ kind: 'count' }],
  },
  {
    kind: 'pattern-properties',
    schema: { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
    valid: [{ 'x-a': 'v' }],
    invalid: [{ 'x-a': 1 }],
  },
  {
    kind: 'property-names',
    schema: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } },
    valid: [{ ab: 1 }],
    invalid: [{ AB: 1 }],
  },
  {
    kind: 'dependent-required',
    schema: {
      type: 'object',
      properties: { card: { type: 'string' }, cvv: { type: 'string' } },
      dependentRequired: { card: ['cvv'] },
    },
    valid: [{ card: '1', cvv: '2' }, {}],
    invalid: [{ card: '1' }],
  },
  {
    kind: 'unicode-description',
    schema: { type: 'string', description: 'Città di partenza — 出発地 🚆' },
    valid: ['Roma'],
    invalid: [3],
  },
];

type Template = (kind: PropertyKind) => Omit<CorpusCase, 'id' | 'name' | 'description'>;

function withDefs(parameters: Record<string, unknown>, kind: PropertyKind): JsonSchema {
  return kind.defs === undefined ? parameters : { ...parameters, $defs: kind.defs };
}

const TEMPLATES: Record<string, Template> = {
  required: (kind) => ({
    parameters: withDefs(
      { type: 'object', properties: { value: kind.schema }, required: ['value'] },
      kind,
    ),
    valid: kind.valid.map((value) => ({ value })),
    invalid: [{}, ...kind.invalid.map((value) => ({ value }))],
  }),
  optional: (kind) => ({
    parameters: withDefs(
      {
        type: 'object',
        properties: { id: { type: 'string' }, value: kind.schema },
        required: ['id'],
      },
      kind,
    ),
    valid: [{ id: 'a' }, ...kind.valid.map((value) => ({ id: 'a', value }))],
    invalid: [{ value: kind.valid[0] }, ...kind.invalid.map((value) => ({ id: 'a', value }))],
  }),
  'in-array': (kind) => ({
    parameters: withDefs(
      {
        type: 'object',
        properties: {
          rows: {
            type: 'array',
            items: { type: 'object', properties: { value: kind.schema }, required: ['value'] },
          },
        },
        required: ['rows'],
      },
      kind,
    ),
    valid: [{ rows: [] }, { rows: kind.valid.map((value) => ({ value })) }],
    invalid: [{ rows: 'x' }, ...kind.invalid.map((value) => ({ rows: [{ value }] }))],
  }),
};

const SPECIAL_CASES: CorpusCase[] = [
  {
    id: 'no-parameters',
    name: 'get_time',
    description: 'Current time.',
    parameters: { type: 'object', properties: {} },
    valid: [{}],
    invalid: [],
  },
  {
    id: 'no-properties',
    name: 'ping',
    description: 'Ping.',
    parameters: { type: 'object' },
    valid: [{}],
    invalid: [],
  },
  {
    id: 'no-parameters-closed',
    name: 'noop',
    description: 'Nothing.',
    parameters: { type: 'object', additionalProperties: false },
    valid: [{}],
    invalid: [{ a: 1 }],
  },
  {
    id: 'top-level-one-of',
    name: 'lookup',
    description: 'Find a user by id or by email.',
    parameters: {
      type: 'object',
      oneOf: [
        { properties: { id: { type: 'integer' } }, required: ['id'] },
        { properties: { email: { type: 'string' } }, required: ['email'] },
      ],
    },
    valid: [{ id: 1 }, { email: 'a' }],
    invalid: [{}, { id: 1, email: 'a' }],
  },
  {
    id: 'top-level-any-of',
    name: 'search',
    description: 'Search.',
    parameters: {
      type: 'object',
      properties: { q: { type: 'string' } },
      anyOf: [{ required: ['q'] }, { properties: { tag: { type: 'string' } }, required: ['tag'] }],
    },
    valid: [{ q: 'a' }, { tag: 'b' }],
    invalid: [{}],
  },
  {
    id: 'top-level-all-of',
    name: 'merge',
    description: 'Merged.',
    parameters: {
      type: 'object',
      allOf: [
        { properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: { type: 'string' } }, required: ['b'] },
      ],
    },
    valid: [{ a: 'x', b: 'y' }],
    invalid: [{ a: 'x' }],
  },
  {
    id: 'output-schema',
    name: 'weather',
    description: 'Weather.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] },
    valid: [{ city: 'Oslo' }],
    invalid: [{}],
  },
  {
    id: 'output-schema-array',
    name: 'list_cities',
    description: 'Cities.',
    parameters: { type: 'object', properties: {} },
    outputSchema: { type: 'array', items: { type: 'string' } },
    valid: [{}],
    invalid: [],
  },
  {
    id: 'schema-dialect',
    name: 'dialect',
    description: 'With $schema.',
    parameters: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/tool',
      type: 'object',
      properties: { a: { type: 'string' } },
    },
    valid: [{ a: 'x' }],
    invalid: [{ a: 1 }],
  },
  {
    id: 'deep-nesting',
    name: 'deep',
    description: 'Seven levels deep.',
    parameters: nest(7),
    valid: [{}],
    invalid: [{ l1: { l2: { l3: { l4: { l5: { l6: { l7: 1 } } } } } } }],
  },
  {
    id: 'many-properties',
    name: 'wide',
    description: 'Sixty properties.',
    parameters: {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 60 }, (_, index) => [`p${index}`, { type: 'string' }]),
      ),
    },
    valid: [{ p0: 'a' }],
    invalid: [{ p0: 1 }],
  },
  {
    // Built from JSON text: an object literal would turn "__proto__" into a prototype, not a property.
    id: 'reserved-property-names',
    name: 'reserved_props',
    description: 'Properties named like Object.prototype members.',
    parameters: JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"integer"},"toString":{"type":"boolean"}},"required":["__proto__"]}',
    ) as JsonSchema,
    valid: [
      JSON.parse('{"__proto__":"x"}') as Record<string, unknown>,
      JSON.parse('{"__proto__":"x","constructor":1,"toString":true}') as Record<string, unknown>,
    ],
    // Ajv skips the subschema of a property named "__proto__", so no sample relies on it.
    invalid: [
      {},
      JSON.parse('{"__proto__":"x","constructor":"y"}'),
      JSON.parse('{"__proto__":"x","toString":1}'),
    ],
  },
  {
    id: 'unicode-property-name',
    name: 'unicode_props',
    description: 'Property names outside the Gemini pattern.',
    parameters: {
      type: 'object',
      properties: { città: { type: 'string' }, 'with space': { type: 'integer' } },
    },
    valid: [{ città: 'Roma' }],
    invalid: [{ 'with space': 'x' }],
  },
];

function nest(depth: number): JsonSchema {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = depth; level >= 1; level--)
    schema = { type: 'object', properties: { [`l${level}`]: schema } };
  return schema;
}

/** Names that every wire treats differently: dots, slashes, spaces, length, reserved words, unicode. */
const NAME_CASES: string[] = [
  'admin.tools.list',
  'files/read',
  'send email',
  'mcp__github__create_pull_request_with_a_really_long_descriptive_name_beyond_limits',
  'x'.repeat(200),
  '__proto__',
  'constructor',
  'toString',
  'class',
  'delete',
  'null',
  'ünïcödé_tool',
  '日本語ツール',
  'server:tool',
  '-leading-dash',
  '9starts_with_digit',
  'UPPER_case-Mixed',
];

/** Builds every corpus case: each property kind in each template, the special cases, and the name cases. */
export function buildCorpus(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const kind of KINDS) {
    for (const [template, build] of Object.entries(TEMPLATES)) {
      cases.push({
        id: `${kind.kind}/${template}`,
        name: `${kind.kind.replace(/-/g, '_')}_${template.replace(/-/g, '_')}`,
        description: `Exercises ${kind.kind} as ${template}.`,
        ...build(kind),
      });
    }
  }
  cases.push(...SPECIAL_CASES);
  NAME_CASES.forEach((name, index) => {
    cases.push({
      id: `name/${index}`,
      name,
      description: index % 2 === 0 ? `A tool named ${name}.` : 'Outil de démonstration — ツール 🔧',
      parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      valid: [{ q: 'a' }],
      invalid: [{}, { q: 1 }],
    });
  });
  return cases;
}
