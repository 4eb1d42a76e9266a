import { describeCallRepositoryContract } from '@toolgate/persistence/testing';
import { InMemoryCallRepository } from './in-memory-call.repository';

describeCallRepositoryContract('in-memory', () => new InMemoryCallRepository());
