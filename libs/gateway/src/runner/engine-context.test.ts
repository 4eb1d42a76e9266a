import {
  ExecutorRegistry,
  allowAllPolicyEngine,
  staticSecretResolver,
  type ApprovalStore,
  type SecretResolver,
} from '@toolgate/engine';
import type { ToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { registryContextFactory } from './engine-context';

const unusedApprovals = {} as ApprovalStore;

describe('registryContextFactory', () => {
  it("gives each call the secrets of the team it runs for, and no one else's", async () => {
    const teams: Record<string, SecretResolver> = {
      'team-a': staticSecretResolver({ API_KEY: 'value-a' }),
      'team-b': staticSecretResolver({}),
    };
    const asked: string[] = [];
    const create = registryContextFactory(
      { executors: new ExecutorRegistry({}) },
      {
        catalog: {
          policyEngineFor: () => allowAllPolicyEngine,
          resolveTool: () => Promise.resolve(undefined),
        },
        approvals: unusedApprovals,
        approvalTtlMs: 1_000,
        secrets: {
          forTeam: (teamId) => {
            asked.push(teamId);
            return teams[teamId] ?? staticSecretResolver({});
          },
        },
      },
    );
    const scope = (team: string) => ({
      tool: { name: 'tool', version: '1.0.0' } as ToolIR,
      caller: { key_id: 'k', team, scopes: [] },
    });
    await expect(create(scope('team-a')).secrets?.resolve('API_KEY')).resolves.toBe('value-a');
    await expect(create(scope('team-b')).secrets?.resolve('API_KEY')).resolves.toBeUndefined();
    expect(asked).toEqual(['team-a', 'team-b']);
  });
});
