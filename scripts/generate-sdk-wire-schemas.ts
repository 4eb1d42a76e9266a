/**
 * Regenerates conformance/sdk/wire-schemas.json from the installed SDKs' types. Run after an SDK
 * upgrade (`npm run conformance:sdk`); a test fails while the file and the SDKs disagree.
 */
import { writeFileSync } from 'node:fs';
import { generateSdkWireSchemas, SDK_WIRE_SCHEMAS_FILE } from '@toolgate/adapters/testing';

void generateSdkWireSchemas().then((generated) => {
  writeFileSync(SDK_WIRE_SCHEMAS_FILE, `${JSON.stringify(generated, null, 2)}\n`);
  console.log(`wrote ${SDK_WIRE_SCHEMAS_FILE} from ${JSON.stringify(generated.sdks)}`);
});
