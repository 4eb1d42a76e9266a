import {
  argumentDocument,
  createRandom,
  splitRandomly,
  toolArgumentDocument,
} from '../../src/stream/__fixtures__/random-json-document';

/** One document: its text and the chunks it is streamed in. */
export interface Document {
  text: string;
  chunks: string[];
}

export interface Workload {
  label: string;
  documents: Document[];
}

/** A document family at the benchmark's sizes. */
export interface Family {
  name: string;
  small: Workload;
  large: Workload;
  hot: Workload;
}

export type WorkloadName = 'small' | 'large' | 'hot';

/**
 * A chunk as a provider stream hands it over: every SDK (and `parseSSE`) gets an argument fragment
 * by JSON.parse of the event's data, so the parser receives a fresh flat string (one byte per
 * character when the fragment is Latin-1; short ones internalized), never a slice of the whole
 * document. Slices would be views into one two-byte string, which no stream produces.
 */
function asDelivered(piece: string): string {
  const event = JSON.parse(JSON.stringify({ type: 'input_json_delta', partial_json: piece })) as {
    partial_json: string;
  };
  return event.partial_json;
}

function family(name: string, write: (size: number, seed: number) => string): Family {
  const document = (size: number, seed: number): Document => {
    const text = write(size, seed);
    const pieces = splitRandomly(text, createRandom(seed * 7919), { min: 4, max: 16 });
    return { text, chunks: pieces.map(asDelivered) };
  };
  const small: Workload = {
    label: '2 KB',
    documents: Array.from({ length: 32 }, (_, index) => document(2 * 1024, 101 + index)),
  };
  return {
    name,
    small,
    large: { label: '64 KB', documents: [document(64 * 1024, 2)] },
    hot: { label: '2 KB (one document, cache-hot)', documents: [small.documents[0] as Document] },
  };
}

/**
 * The two families, and the targets hold on both. "tool arguments": a bulk update as models write it
 * (schema keys, prose with the escapes text needs, raw unicode, numbers, nested objects and arrays);
 * JSON.parse is fast on it and the npm parsers take 20-30x one JSON.parse. "escape-dense": every
 * string dense with escape forms, random keys with control characters; JSON.parse is ~3x slower per
 * character there, so every ratio to it shrinks (the npm parsers sit at 8-14x).
 */
export const FAMILIES: ReadonlyArray<{ name: string; build: () => Family }> = [
  { name: 'tool arguments', build: () => family('tool arguments', toolArgumentDocument) },
  { name: 'escape-dense', build: () => family('escape-dense', argumentDocument) },
];
