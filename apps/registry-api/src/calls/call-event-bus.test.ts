import { describe, expect, it } from 'vitest';
import { CallEventBus } from './call-event-bus';

describe('CallEventBus', () => {
  it('wakes watchers on settling events only, and streams every event to subscribers', () => {
    const bus = new CallEventBus();
    const woken: string[] = [];
    const streamed: string[] = [];
    const unwatch = bus.watch('c1', (type) => woken.push(type));
    const unsubscribe = bus.subscribe('c1', (event) => streamed.push(event.type));
    expect(bus.hasSubscribers('c1')).toBe(true);

    bus.emit({ type: 'started', call_id: 'c1', tool: 't', at: 1, attempt: 1 });
    bus.emit({ type: 'cancelled', call_id: 'c1', tool: 't', at: 2 });
    bus.settled('c1', 'finished');
    bus.settled('c2', 'finished');

    expect(streamed).toEqual(['started', 'cancelled']);
    expect(woken).toEqual(['cancelled', 'finished']);
    unwatch();
    unsubscribe();
    expect(bus.hasSubscribers('c1')).toBe(false);
    bus.settled('c1', 'finished');
    expect(woken).toHaveLength(2);
  });
});
