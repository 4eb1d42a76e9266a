import { describe, expect, it } from 'vitest';
import { fromBullJobId, toBullJobId } from './bullmq.driver';

describe('BullMQ job ids', () => {
  it('keeps ordinary ids as they are', () => {
    expect(toBullJobId('call_8f2a')).toBe('call_8f2a');
    expect(fromBullJobId('call_8f2a')).toBe('call_8f2a');
  });

  it('encodes ids BullMQ refuses, deterministically and reversibly', () => {
    for (const id of ['tenant:call:1', '12345', 'enc.looks-encoded']) {
      const encoded = toBullJobId(id);
      expect(encoded).not.toContain(':');
      expect(encoded).not.toMatch(/^\d+$/);
      expect(toBullJobId(id)).toBe(encoded);
      expect(fromBullJobId(encoded)).toBe(id);
    }
  });
});
