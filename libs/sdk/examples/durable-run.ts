import OpenAI from 'openai';
import { Toolgate, ToolgateRunEndedError } from '@toolgate/sdk';

// The official client reads OPENAI_API_KEY (and OPENAI_BASE_URL when set).
const openai = new OpenAI();
const toolgate = new Toolgate({
  baseUrl: process.env['TOOLGATE_URL'] ?? 'http://localhost:4000',
  apiKey: process.env['TOOLGATE_API_KEY'] ?? '',
});

// The run's id is all the app keeps (in its database, in a job's payload): a process started
// after a crash passes the same id and goes on where the run is.
const runId = process.env['TOOLGATE_RUN_ID'] ?? (await toolgate.runs.create({ mode: 'react' })).id;
console.log(`run ${runId}`);

const { tools } = await toolgate.tools({ format: 'openai-chat', names: ['get_weather'] });
try {
  // Before its first model call the loop appends the run's earlier turns (their calls and
  // results) after these messages; each turn's calls become the run's next checkpointed step.
  const result = await toolgate.runToolLoop({
    provider: 'openai-chat',
    client: openai,
    request: {
      model: 'gpt-4o',
      tools,
      messages: [{ role: 'user', content: 'What is the weather in Oslo?' }],
    },
    run: { id: runId },
  });
  const run = await toolgate.runs.get(runId);
  console.log(`${run.steps.length} turn(s) on the run: ${result.text ?? ''}`);
} catch (error) {
  // Cancelled (or otherwise ended) meanwhile: the run takes no further turn.
  if (!(error instanceof ToolgateRunEndedError)) throw error;
  console.log(`run ${error.runId} has ended (${error.status})`);
}
