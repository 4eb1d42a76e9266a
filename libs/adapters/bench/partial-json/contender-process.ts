/**
 * One contender on one document family, in a process of its own, driven by partial-json.bench.ts
 * over IPC. Separate processes share no JIT state, heap or string tables: in one process a parser's
 * figure moved by up to 1.7x with the order in which the contenders first ran over the same chunks.
 */
import { CONTENDERS, type Contender } from './contenders';
import { FAMILIES, type Workload, type WorkloadName } from './workloads';

export type ContenderRequest =
  | { type: 'prepare' }
  | { type: 'round' }
  | { type: 'slow'; smallRounds: number; largeRounds: number };

export type ContenderReply =
  | { type: 'ready' }
  | { type: 'sample'; times: Record<WorkloadName, number> }
  | { type: 'slow'; small: number[]; large: number[] }
  | { type: 'error'; message: string };

let sink: unknown;

/** Runs a contender over every document of a workload; returns milliseconds per document. */
async function timeOnce(contender: Contender, workload: Workload, repeat: number): Promise<number> {
  const start = performance.now();
  for (let round = 0; round < repeat; round++) {
    for (const doc of workload.documents) {
      const result = contender.run(doc);
      sink = result instanceof Promise ? await result : result;
    }
  }
  return (performance.now() - start) / (repeat * workload.documents.length);
}

/**
 * Every sample lasts at least this long. A contender waits while the others measure, and the first
 * milliseconds after such a wait run slower (caches, CPU state): with 4 ms samples that moved a
 * parser's median by up to 30% from one run to the next; with 50 ms samples it stays within ~2%.
 */
const MIN_SAMPLE_MS = 50;

/** Repeats per sample so that one sample lasts at least MIN_SAMPLE_MS. */
async function calibrate(contender: Contender, workload: Workload): Promise<number> {
  let repeat = 1;
  while (repeat < 65536) {
    const perDocument = await timeOnce(contender, workload, repeat);
    if (perDocument * repeat * workload.documents.length >= MIN_SAMPLE_MS) break;
    repeat *= 2;
  }
  return repeat;
}

/** Every contender must produce the JSON.parse value; returns the time of the run per document. */
async function checkedRun(contender: Contender, workload: Workload): Promise<number> {
  const start = performance.now();
  for (const doc of workload.documents) {
    const result = contender.run(doc);
    const value: unknown = result instanceof Promise ? await result : result;
    if (
      contender.unchecked !== true &&
      JSON.stringify(value) !== JSON.stringify(JSON.parse(doc.text))
    )
      throw new Error(`${contender.name} got a different value on ${workload.label}`);
  }
  return (performance.now() - start) / workload.documents.length;
}

function main(): void {
  const [familyName, contenderName] = process.argv.slice(2);
  const family = FAMILIES.find((candidate) => candidate.name === familyName)?.build();
  const contender = CONTENDERS.find((candidate) => candidate.name === contenderName);
  if (family === undefined || contender === undefined)
    throw new Error(`unknown family or contender: ${familyName} / ${contenderName}`);
  const workloads: Record<WorkloadName, Workload> = {
    small: family.small,
    large: family.large,
    hot: family.hot,
  };
  const repeats: Record<WorkloadName, number> = { small: 1, large: 1, hot: 1 };
  // The quadratic parsers take seconds per 64 KB run: their checked run is also their first sample.
  let firstLarge = 0;

  const handle = async (request: ContenderRequest): Promise<ContenderReply> => {
    switch (request.type) {
      case 'prepare': {
        await checkedRun(contender, family.small);
        firstLarge = await checkedRun(contender, family.large);
        if (contender.slow !== true) {
          for (const name of ['small', 'large', 'hot'] as const) {
            for (let warmup = 0; warmup < 3; warmup++)
              await timeOnce(contender, workloads[name], 1);
            repeats[name] = await calibrate(contender, workloads[name]);
          }
        }
        return { type: 'ready' };
      }
      case 'round': {
        const times = { small: 0, large: 0, hot: 0 };
        for (const name of ['small', 'large', 'hot'] as const)
          times[name] = await timeOnce(contender, workloads[name], repeats[name]);
        return { type: 'sample', times };
      }
      case 'slow': {
        const small: number[] = [];
        for (let round = 0; round < request.smallRounds; round++)
          small.push(await timeOnce(contender, family.small, 1));
        const large = [firstLarge];
        for (let round = 1; round < request.largeRounds; round++)
          large.push(await timeOnce(contender, family.large, 1));
        return { type: 'slow', small, large };
      }
    }
  };

  // The benchmark went away (finished, interrupted or crashed): nothing is left to measure for.
  process.on('disconnect', () => process.exit(0));
  process.on('message', (request: ContenderRequest) => {
    handle(request).then(
      (reply) => process.send?.(reply),
      (error: unknown) =>
        process.send?.({
          type: 'error',
          message: error instanceof Error ? error.message : String(error),
        }),
    );
  });
  if (sink === Symbol.for('unused')) console.log('');
}

main();
