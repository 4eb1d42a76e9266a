import { describeCallRepositoryContract } from '../../test/support/call-repository.contract';
import { InMemoryCallRepository } from './in-memory-call.repository';

describeCallRepositoryContract('in-memory', () => new InMemoryCallRepository());
