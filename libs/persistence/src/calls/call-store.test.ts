import { describe, expect, it } from 'vitest';
import {
  CallEventMessageSchema,
  ExecuteToolCallJobSchema,
  GatewayChannel,
} from '../queue/gateway-queue';
import { callerOfRow, isCallRowId } from './call-store';

describe('CallStore helpers', () => {
  it('only takes uuids for call row ids, so any other id names no call instead of failing', () => {
    expect(isCallRowId('0d6f4f3e-3a43-4c33-9f38-6f0f3a3f8a11')).toBe(true);
    expect(isCallRowId('call_missing')).toBe(false);
    expect(isCallRowId('')).toBe(false);
  });

  it('runs a call for its team and key, or its actor when no key made it', () => {
    expect(callerOfRow({ teamId: 't1', keyId: 'k1', actor: 'alice' })).toEqual({
      key_id: 'k1',
      team: 't1',
      scopes: ['calls:execute'],
    });
    expect(callerOfRow({ teamId: 't1', keyId: null, actor: 'admin' })).toMatchObject({
      key_id: 'admin',
    });
  });
});

describe('the gateway queue contract', () => {
  it('accepts a job with the calls it runs after and refuses unknown fields', () => {
    expect(ExecuteToolCallJobSchema.parse({ call_id: 'c2', after: ['c1'] })).toEqual({
      call_id: 'c2',
      after: ['c1'],
    });
    expect(ExecuteToolCallJobSchema.safeParse({ call_id: 'c2', extra: 1 }).success).toBe(false);
  });

  it('names channels under the queue prefix and keeps event fields it does not know', () => {
    expect(GatewayChannel.events('tg')).toBe('tg:gateway:call-events');
    expect(GatewayChannel.cancel('tg')).toBe('tg:gateway:call-cancel');
    expect(
      CallEventMessageSchema.parse({ type: 'retry', call_id: 'c', tool: 't', at: 1, delay_ms: 5 }),
    ).toMatchObject({ delay_ms: 5 });
    expect(CallEventMessageSchema.safeParse({ type: 'exploded', call_id: 'c' }).success).toBe(
      false,
    );
  });
});
