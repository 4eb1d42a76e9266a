'use client';

import { routes } from '@toolgate/contract';
import { compensationFor, parseToolIR, type CompensationPlan, type ToolIR } from '@toolgate/toolir';
import { useEffect, useState } from 'react';
import { apiRequest } from '../../../lib/api';
import type { CompletedCall } from '../run-view';

/** A completed call with what compensating does with it. */
export interface PlannedUndo extends CompletedCall {
  plan: CompensationPlan;
}

export type CompensationPreview =
  | { state: 'loading' }
  | { state: 'failed'; error: unknown }
  | { state: 'ready'; undos: PlannedUndo[] };

/**
 * The gateway undoes calls in the reverse order they finished, which only the call records tell
 * (the calls of one step run side by side and finish in any order); calls finished at the same
 * instant keep the order they came in, step by step and latest place first, as the gateway's do.
 */
function latestFinishedFirst<TEntry extends { finishedAt: string | null }>(
  entries: readonly TEntry[],
): TEntry[] {
  const at = (entry: TEntry) => (entry.finishedAt === null ? 0 : Date.parse(entry.finishedAt));
  return [...entries].sort((left, right) => at(right) - at(left));
}

/**
 * What compensating `calls` would do, worked out as the gateway does: each call's tool version
 * (its ToolIR) says whether the call was a read, how it is undone, or that it cannot be.
 * `calls` is null while no one asks.
 */
export function useCompensationPreview(calls: CompletedCall[] | null): CompensationPreview | null {
  const [preview, setPreview] = useState<CompensationPreview | null>(null);
  // The calls are the question; their ids say when it changed.
  const key = calls === null ? null : calls.map((entry) => entry.call.id).join(',');

  useEffect(() => {
    if (calls === null) {
      setPreview(null);
      return undefined;
    }
    const controller = new AbortController();
    const { signal } = controller;
    setPreview({ state: 'loading' });
    const irs = new Map<string, Promise<ToolIR>>();
    const irOf = (toolId: string, version: string) => {
      const id = `${toolId}@${version}`;
      let loading = irs.get(id);
      if (loading === undefined) {
        loading = apiRequest(routes.getToolVersion, { params: { toolId, version }, signal }).then(
          // the registry stored it valid; parsing gives it its type (and its defaults)
          (found) => parseToolIR(found.ir),
        );
        irs.set(id, loading);
      }
      return loading;
    };
    Promise.all(
      calls.map(async (entry) => {
        // A run's call names its tool; the call record carries the tool's id.
        const record = await apiRequest(routes.getCall, {
          params: { callId: entry.call.id },
          signal,
        });
        const ir = await irOf(record.tool.id, entry.call.version);
        const data = entry.call.result?.ok ? entry.call.result.data : undefined;
        const undo: PlannedUndo = {
          ...entry,
          plan: compensationFor(ir, { arguments: entry.call.arguments, result: data }),
        };
        return { undo, finishedAt: record.finished_at };
      }),
    ).then(
      (planned) => {
        if (!signal.aborted)
          setPreview({
            state: 'ready',
            undos: latestFinishedFirst(planned).map(({ undo }) => undo),
          });
      },
      (error: unknown) => {
        if (!signal.aborted) setPreview({ state: 'failed', error });
      },
    );
    return () => controller.abort();
    // `key` stands for `calls`
  }, [key]);

  return preview;
}
