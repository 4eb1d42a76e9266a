/**
 * Conversion throughput of ToolIR -> wire for 100 realistic tools, per adapter and mode, beside a
 * `structuredClone` of the same tools as the yardstick (measured in the same run, same machine).
 * Run: `npx tsx libs/adapters/bench/convert-tools.bench.ts` from the repository root.
 */
import { parseToolIR, type ToolIR } from '@toolgate/toolir';
import { getAdapter, toolIdFromName, type Provider, type ToolsToWireOptions } from '../src/index';

const TEMPLATES: Array<{ name: string; description: string; parameters: Record<string, unknown> }> =
  [
    {
      name: 'github.create_issue',
      description: 'Create an issue in a GitHub repository.',
      parameters: {
        type: 'object',
        properties: {
          owner: { type: 'string' },
          repo: { type: 'string' },
          title: { type: 'string', minLength: 1, maxLength: 256 },
          body: { type: ['string', 'null'] },
          labels: { type: 'array', items: { type: 'string' }, uniqueItems: true },
          milestone: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
          type: { type: 'string', enum: ['bug', 'feature', 'task'], default: 'task' },
        },
        required: ['owner', 'repo', 'title'],
        additionalProperties: false,
      },
    },
    {
      name: 'calendar/create event',
      description: 'Create a calendar event with attendees.',
      parameters: {
        type: 'object',
        $defs: {
          Attendee: {
            type: 'object',
            properties: {
              email: { type: 'string', format: 'email' },
              optional: { type: 'boolean' },
            },
            required: ['email'],
          },
        },
        properties: {
          summary: { type: 'string' },
          start: { type: 'string', format: 'date-time' },
          duration_minutes: { type: 'integer', minimum: 5, maximum: 1440, multipleOf: 5 },
          attendees: { type: 'array', items: { $ref: '#/$defs/Attendee' } },
          visibility: { const: 'private' },
        },
        required: ['summary', 'start'],
      },
    },
    {
      name: 'get_current_weather',
      description: 'Get the current weather in a given location.',
      parameters: {
        type: 'object',
        properties: {
          location: { type: 'string' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        },
        required: ['location'],
      },
    },
    {
      name: 'crm.search_contacts',
      description: 'Search contacts by name, company or tag; paginated.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Free text.' },
          filters: {
            type: 'object',
            properties: {
              company: { type: 'string' },
              tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
              created_after: { type: 'string', format: 'date' },
            },
          },
          page: { type: 'integer', minimum: 1, default: 1 },
          page_size: { type: 'integer', enum: [10, 25, 50, 100] },
        },
      },
    },
    {
      name: 'orders.refund',
      description: 'Refund an order fully or partially.',
      parameters: {
        type: 'object',
        properties: {
          order_id: { type: 'string', pattern: '^ord_[A-Za-z0-9]{12}$' },
          amount: { type: 'number', exclusiveMinimum: 0 },
          reason: { type: 'string', enum: ['duplicate', 'fraudulent', 'requested_by_customer'] },
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
              required: ['sku', 'qty'],
            },
          },
        },
        required: ['order_id'],
      },
    },
    {
      name: 'files/read',
      description: 'Read a file from the workspace.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          encoding: { type: 'string', enum: ['utf8', 'base64'], default: 'utf8' },
          range: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'integer' }] },
        },
        required: ['path'],
      },
    },
    {
      name: 'kb.tree',
      description: 'Browse the knowledge base tree.',
      parameters: {
        type: 'object',
        $defs: {
          Node: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              children: { type: 'array', items: { $ref: '#/$defs/Node' } },
            },
            required: ['id'],
          },
        },
        properties: {
          root: { $ref: '#/$defs/Node' },
          depth: { type: 'integer', minimum: 0, maximum: 5 },
        },
      },
    },
    {
      name: 'send email',
      description: 'Send an email on behalf of the user — requires approval.',
      parameters: {
        type: 'object',
        properties: {
          to: { type: 'array', items: { type: 'string', format: 'email' }, minItems: 1 },
          subject: { type: 'string' },
          body: { type: 'string' },
          attachments: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                content_base64: { type: 'string', contentEncoding: 'base64' },
              },
            },
          },
        },
        required: ['to', 'subject', 'body'],
      },
    },
    {
      name: 'lookup_user',
      description: 'Find a user by id or by email.',
      parameters: {
        type: 'object',
        oneOf: [
          { properties: { id: { type: 'integer' } }, required: ['id'] },
          { properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
        ],
      },
    },
    {
      name: 'get_time',
      description: 'Current time in UTC.',
      parameters: { type: 'object', properties: {} },
    },
  ];

function buildTools(count: number): ToolIR[] {
  return Array.from({ length: count }, (_, index) => {
    const template = TEMPLATES[index % TEMPLATES.length]!;
    const name = `${template.name}_${Math.floor(index / TEMPLATES.length)}`;
    return parseToolIR({
      schema_version: '1.0',
      id: toolIdFromName(name),
      name,
      version: '1.0.0',
      description: template.description,
      parameters: template.parameters,
      behavior: { readonly: false, destructive: false, idempotent: true },
      constraints: { timeout_ms: 5000 },
    });
  });
}

const TOOLS = buildTools(100);
const WARMUP_MS = 300;
const ROUNDS = 15;
const ROUND_MS = 60;

/** Tools per second of one timed round of `run` (which converts all TOOLS once per call). */
function round(run: () => unknown): number {
  let iterations = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    run();
    iterations++;
    elapsed = performance.now() - start;
  } while (elapsed < ROUND_MS);
  return (iterations * TOOLS.length) / (elapsed / 1000);
}

/**
 * Median rate of each runner; rounds are interleaved (clone, a, b, … then again) so a busy
 * machine slows every runner alike and the ratios stay meaningful.
 */
function measureAll(runners: Array<() => unknown>): number[] {
  for (const run of runners) {
    const warmupEnd = performance.now() + WARMUP_MS;
    while (performance.now() < warmupEnd) run();
  }
  const rates = runners.map((): number[] => []);
  for (let index = 0; index < ROUNDS; index++)
    runners.forEach((run, runner) => rates[runner]!.push(round(run)));
  return rates.map(
    (list) => list.sort((left, right) => left - right)[Math.floor(list.length / 2)]!,
  );
}

const CASES: Array<{ provider: Provider; mode: string; options: ToolsToWireOptions }> = [
  { provider: 'openai-chat', mode: 'default', options: {} },
  { provider: 'openai-chat', mode: 'strict', options: { strict: true } },
  { provider: 'openai-responses', mode: 'strict', options: { strict: true } },
  { provider: 'anthropic', mode: 'default', options: {} },
  { provider: 'anthropic', mode: 'strict', options: { strict: true } },
  { provider: 'gemini', mode: 'openapi', options: {} },
  { provider: 'gemini', mode: 'jsonschema', options: { schemaMode: 'jsonschema' } },
  { provider: 'mcp', mode: 'default', options: {} },
];

const [cloneRate = 0, ...caseRates] = measureAll([
  () => structuredClone(TOOLS),
  ...CASES.map(({ provider, options }) => {
    const adapter = getAdapter(provider);
    return () => adapter.toolsToWire(TOOLS, options);
  }),
]);
const rows = CASES.map(({ provider, mode }, index) => ({
  provider,
  mode,
  rate: caseRates[index] ?? 0,
}));

const format = (value: number): string => Math.round(value).toLocaleString('en-US');
const header = [
  'adapter',
  'mode',
  'tools/s (median)',
  'µs/tool',
  'structuredClone tools/s',
  'cost vs clone',
];
const lines = [
  ...rows.map(({ provider, mode, rate }) => [
    provider,
    mode,
    format(rate),
    (1e6 / rate).toFixed(1),
    format(cloneRate),
    `${(cloneRate / rate).toFixed(2)}×`,
  ]),
  [
    'structuredClone',
    '(baseline)',
    format(cloneRate),
    (1e6 / cloneRate).toFixed(1),
    format(cloneRate),
    '1.00×',
  ],
];
const widths = header.map((title, column) =>
  Math.max(title.length, ...lines.map((line) => line[column]!.length)),
);
const render = (cells: string[]): string =>
  cells
    .map((cell, column) =>
      column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
    )
    .join('  ');
console.log(
  `ToolIR -> wire, ${TOOLS.length} tools per conversion, median of ${ROUNDS} interleaved rounds of ${ROUND_MS} ms after ${WARMUP_MS} ms warmup; node ${process.version}`,
);
console.log(render(header));
console.log(widths.map((width) => '-'.repeat(width)).join('  '));
for (const line of lines) console.log(render(line));
