import { describeQueueDriverContract } from '../../test/queue/queue-driver.contract';
import { InProcessDriver } from './in-process.driver';
import { QueueName } from './queue-driver';

describeQueueDriverContract('in-process', () =>
  Promise.resolve({
    driver: new InProcessDriver({ queue: QueueName.ToolCalls }),
    cleanup: () => Promise.resolve(),
  }),
);
