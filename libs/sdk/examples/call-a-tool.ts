import { registryTypes, Toolgate, ToolgateApiError } from '@toolgate/sdk';

// The types of the registry tools this app calls, as the catalog's declarations state them:
// arguments and results are then checked and typed by tool name.
interface Weather {
  city: string;
  temperature: number;
}
const types = registryTypes<{ get_weather: { arguments: { city: string }; result: Weather } }>([
  'get_weather',
]);

const toolgate = new Toolgate({
  baseUrl: process.env['TOOLGATE_URL'] ?? 'http://localhost:4000',
  apiKey: process.env['TOOLGATE_API_KEY'] ?? '',
  types,
});

try {
  // No model in between: run a registry tool by name, at a version (or range) of your choice.
  const { result, call } = await toolgate.call('get_weather', { city: 'Oslo' }, { version: '^1' });
  if (result.ok && result.data !== undefined) {
    console.log(
      `${call.tool}@${call.version}: ${result.data.temperature} °C in ${result.data.city}`,
    );
  } else {
    // A tool's own failure is a result the model could read, not an exception.
    console.log(`${call.tool} failed: ${result.error?.code}: ${result.error?.message}`);
  }
} catch (error) {
  // The gateway refused the request: unknown tool, no such version, past its sunset...
  if (error instanceof ToolgateApiError)
    console.log(`refused: ${error.problemCode}: ${error.detail}`);
  else throw error;
}
