import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/database/database';
import { createDatabase, dropDatabase, randomDatabaseName } from '@toolgate/persistence/testing';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated database that test files copy (CREATE DATABASE ... TEMPLATE). */
    templateDatabase: string;
    /** A migrated PGlite directory that test files copy ('' when migrating each is wanted). */
    pgliteTemplate: string;
  }
}

/**
 * Migrates one template per run with the real migrator, a Postgres database and a PGlite directory;
 * each integration test file copies one into a database of its own (fast, isolated) and drops it
 * when done.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = randomDatabaseName('template');
  const url = await createDatabase(template);
  let pgliteTemplate = '';
  try {
    const database = await openDatabase({ kind: 'postgres', url });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    pgliteTemplate = await mkdtemp(path.join(tmpdir(), 'toolgate-pglite-template-'));
    const embedded = await openDatabase({ kind: 'pglite', dataDir: pgliteTemplate });
    try {
      await embedded.migrate();
    } finally {
      await embedded.close();
    }
  } catch (error) {
    await dropDatabase(template);
    if (pgliteTemplate) await rm(pgliteTemplate, { recursive: true, force: true });
    throw error;
  }
  project.provide('templateDatabase', template);
  project.provide('pgliteTemplate', pgliteTemplate);
  return async () => {
    await dropDatabase(template);
    await rm(pgliteTemplate, { recursive: true, force: true });
  };
}
