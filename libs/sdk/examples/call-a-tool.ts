import { Toolgate, ToolgateApiError } from '@toolgate/sdk';

const toolgate = new Toolgate({
  baseUrl: process.env['TOOLGATE_URL'] ?? 'http://localhost:4000',
  apiKey: process.env['TOOLGATE_API_KEY'] ?? '',
});

try {
  // No model in between: run a registry tool by name, at a version (or range) of your choice.
  const { result, call } = await toolgate.call('get_weather', { city: 'Oslo' }, { version: '^1' });
  if (result.ok) console.log(`${call.tool}@${call.version} said ${JSON.stringify(result.data)}`);
  // A tool's own failure is a result the model could read, not an exception.
  else console.log(`${call.tool} failed: ${result.error?.code}: ${result.error?.message}`);
} catch (error) {
  // The gateway refused the request: unknown tool, no such version, past its sunset...
  if (error instanceof ToolgateApiError)
    console.log(`refused: ${error.problemCode}: ${error.detail}`);
  else throw error;
}
