/**
 * A CommonJS app: tsc turns this import into `require('@toolgate/sdk')`, so Node loads the package's
 * `require` entry and tsc checks it against the declarations of that condition.
 */
import { Toolgate, ToolgateApiError, ToolgateSdkError } from '@toolgate/sdk';

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

/** The HTTP status a refused key gets, read through the package's own error class. */
async function statusOfWrongKey(baseUrl: string): Promise<number | undefined> {
  try {
    await new Toolgate({ baseUrl, apiKey: 'tg_not-a-key' }).tools({ format: 'anthropic' });
    return undefined;
  } catch (error) {
    if (error instanceof ToolgateApiError && ToolgateSdkError.isInstance(error))
      return error.status;
    throw error;
  }
}

async function main(): Promise<void> {
  const baseUrl = requiredEnv('TOOLGATE_URL');
  const toolgate = new Toolgate({ baseUrl, apiKey: requiredEnv('TOOLGATE_API_KEY') });
  const exported = await toolgate.tools({ format: 'anthropic' });
  console.log(
    JSON.stringify({
      entry: 'cjs',
      tools: exported.tools.map((tool) => tool.name),
      wrongKeyStatus: await statusOfWrongKey(baseUrl),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
