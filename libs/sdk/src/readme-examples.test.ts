import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README ships in the npm package, where nothing checks it: its code has to be the example
// files, which the package's integration tests compile and run against a real gateway.
const SDK_ROOT = path.join(import.meta.dirname, '..');
const README = 'README.md';
const EXAMPLES = 'examples';

/** Info strings of the blocks a reader copies and runs; shell and other blocks stay prose. */
const CODE_LANGUAGES: ReadonlySet<string> = new Set(['ts', 'typescript', 'js', 'javascript']);

/** `<!-- example: examples/<file>.ts -->`, the line right above an embedded example. */
const MARKER = /^<!-- example: (\S+) -->$/;

/** Only the SDK is published: a README import of another workspace package cannot be installed. */
const PUBLISHED_PACKAGE = '@toolgate/sdk';
const WORKSPACE_IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"`])(@toolgate\/[^'"`]*)\1/g;

interface FencedBlock {
  /** Line of the opening fence, from 1. */
  line: number;
  /** The info string's first word, lower-cased (`ts` for ```` ```ts title="x" ````). */
  language: string;
  /** The lines between the fences. */
  body: string;
  /** The line right above the opening fence ('' at the top of the file). */
  above: string;
}

/** CRLF checkouts of either file must not fail the comparison. */
function readText(file: string): string {
  return readFileSync(path.join(SDK_ROOT, file), 'utf8').replace(/\r\n/g, '\n');
}

/**
 * Fenced code blocks as CommonMark reads them: a run of at least three backticks or tildes,
 * indented at most three spaces, closed by a run of the same character at least as long (or by
 * the end of the file).
 */
function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*(\S*)/.exec(lines[index] ?? '');
    if (open === null) continue;
    const fence = open[1] ?? '```';
    const closing = new RegExp(`^ {0,3}\\${fence.charAt(0)}{${fence.length},}\\s*$`);
    let end = index + 1;
    while (end < lines.length && !closing.test(lines[end] ?? '')) end += 1;
    blocks.push({
      line: index + 1,
      language: (open[2] ?? '').replace(/[{`].*$/, '').toLowerCase(),
      body: lines.slice(index + 1, end).join('\n'),
      above: index === 0 ? '' : (lines[index - 1] ?? ''),
    });
    index = end;
  }
  return blocks;
}

/** A file's text as a block body holds it: no final newline. */
function asBlockBody(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

const readme = readText(README);
const readmeLines = readme.split('\n');
const codeBlocks = fencedBlocks(readme).filter((block) => CODE_LANGUAGES.has(block.language));
const exampleFiles = readdirSync(path.join(SDK_ROOT, EXAMPLES))
  .filter((name) => name.endsWith('.ts'))
  .sort()
  .map((name) => `${EXAMPLES}/${name}`);

/** The first line, from 1, where two texts differ (a diff of two long strings is hard to place). */
function firstDifferentLine(left: string, right: string): number {
  const leftLines = left.split('\n');
  const rightLines = right.split('\n');
  const index = leftLines.findIndex((line, at) => line !== rightLines[at]);
  return (index === -1 ? leftLines.length : index) + 1;
}

/** The example file a block's marker names, or undefined when the line above is no marker. */
function markedFile(block: FencedBlock): string | undefined {
  return MARKER.exec(block.above)?.[1];
}

describe(`${README} code examples`, () => {
  it('finds example files to check', () => {
    expect(exampleFiles, `no *.ts files in ${path.join(SDK_ROOT, EXAMPLES)}`).not.toHaveLength(0);
  });

  it('embeds every ts/js block verbatim from the example file its marker names', () => {
    for (const block of codeBlocks) {
      const where = `${README} line ${block.line} (\`\`\`${block.language} block)`;
      const file = markedFile(block);
      if (file === undefined) {
        expect
          .soft(
            block.above,
            `${where}: the line above must be "<!-- example: ${EXAMPLES}/<file>.ts -->"; code in the README has to be an example file`,
          )
          .toMatch(MARKER);
        continue;
      }
      if (!exampleFiles.includes(file)) {
        expect
          .soft(
            exampleFiles,
            `${where}: its marker names ${file}, which is not one of the ${EXAMPLES}/*.ts files`,
          )
          .toContain(file);
        continue;
      }
      const expected = asBlockBody(readText(file));
      const line = firstDifferentLine(block.body, expected);
      expect
        .soft(
          block.body,
          `${where} differs from ${file} first at its line ${line} (${README} line ${block.line + line}): copy the file into the block unchanged (or change the file)`,
        )
        .toBe(expected);
    }
  });

  it('embeds each example file exactly once', () => {
    for (const file of exampleFiles) {
      const lines = codeBlocks
        .filter((block) => markedFile(block) === file)
        .map((block) => block.line);
      expect
        .soft(
          lines.length,
          lines.length === 0
            ? `${file} is not in ${README}: add "<!-- example: ${file} -->" and a \`\`\`ts block with its content`
            : `${file} is embedded ${lines.length} times (${README} lines ${lines.join(', ')}); keep one`,
        )
        .toBe(1);
    }
  });

  it('has no example marker without its code block right below', () => {
    const embedded = new Set(codeBlocks.map((block) => block.line - 1));
    readmeLines.forEach((text, index) => {
      if (!MARKER.test(text)) return;
      expect
        .soft(
          embedded.has(index + 1),
          `${README} line ${index + 1}: "${text}" must be directly followed by the \`\`\`ts block it marks`,
        )
        .toBe(true);
    });
  });

  it(`imports nothing from @toolgate/ but ${PUBLISHED_PACKAGE}`, () => {
    readmeLines.forEach((text, index) => {
      for (const match of text.matchAll(WORKSPACE_IMPORT)) {
        expect
          .soft(
            match[2],
            `${README} line ${index + 1} imports ${match[2] ?? ''}, which is not published; import it from ${PUBLISHED_PACKAGE} (check what src/index.ts exports)`,
          )
          .toBe(PUBLISHED_PACKAGE);
      }
    });
  });
});
