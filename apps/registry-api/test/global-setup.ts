import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/database/database';
import { createDatabase, dropDatabase, randomDatabaseName } from '@toolgate/persistence/testing';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated database that test files copy (CREATE DATABASE ... TEMPLATE). */
    templateDatabase: string;
  }
}

/**
 * Migrates one template database per run with the real migrator; each integration test file
 * copies it into a database of its own (fast, isolated) and drops it when done.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = randomDatabaseName('template');
  const url = await createDatabase(template);
  try {
    const database = await openDatabase({ kind: 'postgres', url });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
  } catch (error) {
    await dropDatabase(template);
    throw error;
  }
  project.provide('templateDatabase', template);
  return async () => {
    await dropDatabase(template);
  };
}
