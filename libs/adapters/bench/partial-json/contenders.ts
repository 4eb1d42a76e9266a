import { JSONParser } from '@streamparser/json';
import { parsePartialJson } from 'ai';
import { parse as jsonriverParse } from 'jsonriver';
import { parse as partialJsonParse } from 'partial-json';
import { createPartialJsonParser } from '../../src/stream/partial-json-parser';
import { parseFinishedText, visitEveryCharacter } from './js-cost-references';
import type { Document } from './workloads';

export interface Contender {
  name: string;
  run: (doc: Document) => unknown;
  /** Re-parses the whole buffer per chunk: measured with few rounds. */
  slow?: boolean;
  /** Not one of the parsers compared against (ours, JSON.parse, the yardsticks). */
  ours?: boolean;
  /** A yardstick (js-cost-references.ts), not a streaming parser. */
  yardstick?: boolean;
  /** Builds no value, so there is nothing to check against JSON.parse. */
  unchecked?: boolean;
}

export const BASELINE = 'JSON.parse (whole document, once)';
export const OURS = 'toolgate createPartialJsonParser';

/** Keeps results alive so that no work is optimized away. */
export let sink: unknown;

export const CONTENDERS: readonly Contender[] = [
  {
    name: BASELINE,
    ours: true,
    // The finished text parsed once.
    run: (doc) => JSON.parse(doc.text) as unknown,
  },
  {
    name: OURS,
    ours: true,
    run({ chunks }) {
      const parser = createPartialJsonParser();
      for (const chunk of chunks) sink = parser.push(chunk).value;
      return parser.end();
    },
  },
  {
    name: 'toolgate (snapshots: true)',
    ours: true,
    slow: true,
    run({ chunks }) {
      const parser = createPartialJsonParser({ snapshots: true });
      for (const chunk of chunks) sink = parser.push(chunk).value;
      return parser.end();
    },
  },
  {
    name: 'yardstick: visit every character once',
    ours: true,
    yardstick: true,
    unchecked: true,
    run: ({ chunks }) => visitEveryCharacter(chunks),
  },
  {
    name: 'yardstick: plain JS parser, finished text',
    ours: true,
    yardstick: true,
    run: ({ text }) => parseFinishedText(text),
  },
  {
    name: '@streamparser/json (partial values)',
    run({ chunks }) {
      // Every value, partial ones too, is emitted with the stack of open containers (built in place);
      // the root is the bottom of that stack. Its tree leaves open strings out (they come separately),
      // so this is a little less work than the other parsers do.
      const parser = new JSONParser({
        emitPartialTokens: true,
        emitPartialValues: true,
        keepStack: true,
      });
      let root: unknown;
      parser.onValue = (info) => {
        root = info.stack.length > 1 ? info.stack[1]?.value : (info.parent ?? info.value);
      };
      for (const chunk of chunks) {
        parser.write(chunk);
        sink = root;
      }
      // Without a separator the parser ends itself after the top-level value.
      return root;
    },
  },
  {
    name: 'jsonriver (async iterator)',
    async run({ chunks }) {
      // A plain async iterable: no generator machinery of ours in jsonriver's time.
      let next = 0;
      const source: AsyncIterable<string> = {
        [Symbol.asyncIterator]: () => ({
          next: () =>
            Promise.resolve(
              next < chunks.length
                ? { value: chunks[next++] as string, done: false }
                : { value: undefined, done: true as const },
            ),
        }),
      };
      let value: unknown;
      for await (const partial of jsonriverParse(source)) {
        value = partial;
        sink = value;
      }
      return value;
    },
  },
  {
    name: 'partial-json parse(buffer)',
    slow: true,
    run({ chunks }) {
      let buffer = '';
      let value: unknown;
      for (const chunk of chunks) {
        buffer += chunk;
        // An incomplete number or literal at the end can make it throw; a UI keeps the last value.
        try {
          value = partialJsonParse(buffer);
        } catch {
          /* keep the previous partial value */
        }
        sink = value;
      }
      return value;
    },
  },
  {
    name: 'ai parsePartialJson (awaited)',
    slow: true,
    async run({ chunks }) {
      let buffer = '';
      let value: unknown;
      for (const chunk of chunks) {
        buffer += chunk;
        value = (await parsePartialJson(buffer)).value;
        sink = value;
      }
      return value;
    },
  },
];
