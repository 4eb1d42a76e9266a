/**
 * Streams tool-argument documents (~2 KB and ~64 KB) in 4-16 character chunks and reads the partial
 * value after every chunk, with our parser and with the partial-JSON parsers in common use.
 * Run from the repo root: `npx tsx libs/adapters/bench/partial-json.bench.ts`.
 *
 * Two document families (partial-json/workloads.ts), because the targets' yardstick, one JSON.parse,
 * moves with the text: "tool arguments" (schema keys, prose, numbers; JSON.parse is fast) and
 * "escape-dense" (every string dense with escape forms, random keys; JSON.parse is ~3x slower per
 * character). The targets are checked on both. Chunks are fresh strings, as a provider stream
 * delivers them.
 * Two yardsticks run beside the parsers (partial-json/js-cost-references.ts): visiting every character
 * once (the floor of any incremental parser) and a plain JavaScript parser over the finished text.
 *
 * Method: each contender runs in a process of its own (partial-json/contender-process.ts), so no
 * parser's JIT state or heap leaks into another's figures. After a checked run (the value must equal
 * JSON.parse's) and a warmup, the fast contenders take turns in 25 rounds, one sample (at least
 * 50 ms) each per round; every figure is a median, and the targets use the median of per-round
 * ratios, so load from other processes on the machine hits both sides of a ratio alike. The 2 KB figure is the mean over 32
 * different 2 KB documents: one tiny document parsed thousands of times is learned by the CPU's
 * branch predictor and caches (the cache-hot single-document figure is printed too). The parsers that
 * re-parse the whole buffer per chunk (quadratic) take seconds per 64 KB run: two 64 KB runs.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ContenderReply, ContenderRequest } from './partial-json/contender-process';
import { BASELINE, CONTENDERS, OURS, type Contender } from './partial-json/contenders';
import { FAMILIES, type Family, type WorkloadName } from './partial-json/workloads';

const ROUNDS = 25;
const CONTENDER_PROCESS = fileURLToPath(
  new URL('./partial-json/contender-process.ts', import.meta.url),
);

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

function format(value: number, digits = 3): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(digits);
}

/** A contender's process and a way to ask it for work. */
interface Runner {
  contender: Contender;
  request(message: ContenderRequest): Promise<ContenderReply>;
  stop(): void;
}

function startRunner(family: string, contender: Contender): Runner {
  const child: ChildProcess = fork(CONTENDER_PROCESS, [family, contender.name], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
  });
  return {
    contender,
    request: (message) =>
      new Promise<ContenderReply>((resolve, reject) => {
        const onExit = (code: number | null): void =>
          reject(new Error(`${contender.name} exited with ${String(code)}`));
        child.once('exit', onExit);
        child.once('message', (reply: ContenderReply) => {
          child.off('exit', onExit);
          if (reply.type === 'error') reject(new Error(`${contender.name}: ${reply.message}`));
          else resolve(reply);
        });
        child.send(message);
      }),
    stop: () => child.kill(),
  };
}

interface Target {
  name: string;
  value: string;
  pass: boolean;
}

/** samples[contender][workload]: milliseconds per document, one entry per round. */
type Samples = Map<string, Record<WorkloadName, number[]>>;

async function measure(family: string): Promise<Samples> {
  const samples: Samples = new Map(
    CONTENDERS.map((contender) => [contender.name, { small: [], large: [], hot: [] }]),
  );
  const runners = CONTENDERS.map((contender) => startRunner(family, contender));
  try {
    // One at a time: a preparing process must not take CPU from a measuring one.
    for (const runner of runners) await runner.request({ type: 'prepare' });
    const fast = runners.filter((runner) => runner.contender.slow !== true);
    for (let round = 0; round < ROUNDS; round++) {
      for (const runner of fast) {
        const reply = await runner.request({ type: 'round' });
        if (reply.type !== 'sample') throw new Error(`unexpected reply ${reply.type}`);
        const own = samples.get(runner.contender.name) as Record<WorkloadName, number[]>;
        for (const name of ['small', 'large', 'hot'] as const) own[name].push(reply.times[name]);
      }
    }
    for (const runner of runners.filter((candidate) => candidate.contender.slow === true)) {
      const ours = runner.contender.ours === true;
      const reply = await runner.request({
        type: 'slow',
        smallRounds: 5,
        largeRounds: ours ? 10 : 2,
      });
      if (reply.type !== 'slow') throw new Error(`unexpected reply ${reply.type}`);
      const own = samples.get(runner.contender.name) as Record<WorkloadName, number[]>;
      own.small.push(...reply.small);
      own.large.push(...reply.large);
    }
  } finally {
    for (const runner of runners) runner.stop();
  }
  return samples;
}

/** Prints one family's table and returns its targets. */
function report(subject: Family, samples: Samples): Target[] {
  const series = (name: string, workload: WorkloadName): number[] =>
    samples.get(name)?.[workload] ?? [];
  const at = (name: string, workload: WorkloadName): number =>
    median(series(name, workload).length > 0 ? series(name, workload) : [Number.NaN]);
  const ratios = (top: number[], bottom: number[]): number[] =>
    top.map((value, index) => value / (bottom[index] as number));
  const perRound = (top: number[], bottom: number[]): number => median(ratios(top, bottom));
  // The machine is shared: the quartiles of the per-round ratios show how far load moved a result.
  const quartiles = (top: number[], bottom: number[]): string => {
    const sorted = ratios(top, bottom).sort((a, b) => a - b);
    const quantile = (share: number): number =>
      sorted[Math.floor(share * (sorted.length - 1))] as number;
    return sorted.length < 4
      ? ''
      : ` (per-round quartiles ${format(quantile(0.25), 1)}-${format(quantile(0.75), 1)}x)`;
  };

  const { small, large } = subject;
  const smallChars =
    small.documents.reduce((sum, doc) => sum + doc.text.length, 0) / small.documents.length;
  const smallChunks =
    small.documents.reduce((sum, doc) => sum + doc.chunks.length, 0) / small.documents.length;
  const largeDoc = large.documents[0] as Family['large']['documents'][number];
  console.log(`\n== ${subject.name} ==`);
  console.log(
    `2 KB: 32 documents, ${format(smallChars, 0)} chars and ${format(smallChunks, 0)} chunks each on average; ` +
      `64 KB: ${largeDoc.text.length} chars in ${largeDoc.chunks.length} chunks; chunks of 4-16 chars, partial value read after each.`,
  );
  console.log(
    `One JSON.parse of the final document: 2 KB ${format(at(BASELINE, 'small') * 1000)} µs, 64 KB ${format(at(BASELINE, 'large') * 1000)} µs\n`,
  );

  const header = [
    'parser (times per document, median)',
    '2 KB ms',
    '2 KB ×parse',
    '64 KB ms',
    '64 KB ×parse',
    '64 KB / 2 KB',
  ];
  const rows = CONTENDERS.filter((contender) => contender.name !== BASELINE).map((contender) => {
    const smallTime = at(contender.name, 'small');
    const largeTime = at(contender.name, 'large');
    return [
      contender.name,
      format(smallTime),
      format(smallTime / at(BASELINE, 'small'), 2),
      format(largeTime),
      format(largeTime / at(BASELINE, 'large'), 2),
      format(largeTime / smallTime, 1),
    ];
  });
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] as string).length)),
  );
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) =>
        column === 0
          ? cell.padEnd(widths[column] as number)
          : cell.padStart(widths[column] as number),
      )
      .join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));

  const oursLarge = series(OURS, 'large');
  const parseRatio = perRound(oursLarge, series(BASELINE, 'large'));
  const growth = perRound(oursLarge, series(OURS, 'small'));
  const hotGrowth = perRound(oursLarge, series(OURS, 'hot'));
  const fastest = CONTENDERS.filter((contender) => contender.ours !== true)
    .map((contender) => ({ contender, time: at(contender.name, 'large') }))
    .sort((a, b) => a.time - b.time)[0] as { contender: Contender; time: number };
  const fastestLarge = series(fastest.contender.name, 'large');
  const speedup =
    fastest.contender.slow === true
      ? fastest.time / at(OURS, 'large')
      : perRound(fastestLarge, oursLarge);

  console.log(
    `\nCache-hot single 2 KB document (for reference): ours ${format(at(OURS, 'hot'))} ms, JSON.parse ${format(at(BASELINE, 'hot') * 1000)} µs; ` +
      `64 KB / hot 2 KB = ${format(hotGrowth, 1)}x (JSON.parse: ${format(perRound(series(BASELINE, 'large'), series(BASELINE, 'hot')), 1)}x), for ${format(largeDoc.text.length / smallChars, 1)}x the characters.`,
  );
  const fastestRatio = perRound(fastestLarge, series(BASELINE, 'large'));
  console.log(
    `At 64 KB, in one JSON.parse: ${fastest.contender.name} ${format(fastestRatio, 2)}x, so 5x faster than it means at most ${format(fastestRatio / 5, 2)}x; ` +
      CONTENDERS.filter((contender) => contender.yardstick === true)
        .map(
          (yardstick) =>
            `${yardstick.name.replace('yardstick: ', '')} ${format(perRound(series(yardstick.name, 'large'), series(BASELINE, 'large')), 2)}x`,
        )
        .join(', ') +
      '.',
  );
  return [
    {
      name: `${subject.name}: 64 KB at most 3x one JSON.parse`,
      value: `${format(parseRatio, 2)}x${quartiles(oursLarge, series(BASELINE, 'large'))}`,
      pass: parseRatio <= 3,
    },
    {
      name: `${subject.name}: linear, 64 KB time at most 40x the 2 KB time`,
      value: `${format(growth, 1)}x`,
      pass: growth <= 40,
    },
    {
      name: `${subject.name}: 64 KB at least 5x faster than the fastest other (${fastest.contender.name})`,
      value: `${format(speedup, 1)}x faster${fastest.contender.slow === true ? '' : quartiles(fastestLarge, oursLarge)}`,
      pass: speedup >= 5,
    },
  ];
}

async function main(): Promise<void> {
  console.log(`Node ${process.version}; every contender in its own process, ${ROUNDS} rounds`);
  const targets: Target[] = [];
  for (const { name, build } of FAMILIES) targets.push(...report(build(), await measure(name)));
  console.log('');
  for (const target of targets)
    console.log(`${target.pass ? 'PASS' : 'FAIL'}  ${target.name}: ${target.value}`);
  process.exitCode = targets.every((target) => target.pass) ? 0 : 1;
}

await main();
