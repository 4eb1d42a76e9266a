import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, trace } from '@opentelemetry/api';
import { silentLogger } from '@toolgate/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../../src/config/worker.config';
import { JobName } from '@toolgate/persistence';
import { startTracing } from '../../src/telemetry/tracing';
import type { InMemoryCallRepository } from '@toolgate/gateway';
import { startWorker } from '../../src/worker/start-worker';
import { buildCall, buildTool, TEST_CALLER } from '@toolgate/persistence/testing';

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean };
}
interface OtlpSpan {
  name: string;
  attributes?: OtlpAttribute[];
}
interface OtlpExport {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

function attributesOf(span: OtlpSpan): Record<string, unknown> {
  return Object.fromEntries(
    (span.attributes ?? []).map((attribute) => [
      attribute.key,
      attribute.value.stringValue ?? attribute.value.intValue ?? attribute.value.boolValue,
    ]),
  );
}

describe('a worker with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  afterAll(() => {
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('exports an execute_tool span with the GenAI attributes over OTLP/HTTP', async () => {
    const exports: Array<{
      url: string | undefined;
      contentType: string | undefined;
      body: string;
    }> = [];
    const collector = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        exports.push({ url: request.url, contentType: request.headers['content-type'], body });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as AddressInfo;
    try {
      const config = loadWorkerConfig({
        WORKER_ID: 'otlp-worker',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_SERVICE_NAME: 'toolgate-worker-otlp-test',
      });
      // The same wiring as main.ts: tracing from the config, its tracer handed to the worker.
      const tracing = startTracing(config);
      const worker = await startWorker({ config, logger: silentLogger, tracer: tracing.tracer });
      const calls = worker.calls as InMemoryCallRepository;
      const tool = buildTool({ name: 'lookup_order', handler: 'toolgate.echo' });
      const call = buildCall(tool, { tag: 'A-17' });
      await calls.create({ call, tool, caller: TEST_CALLER });
      await worker.driver.enqueue({
        name: JobName.ExecuteToolCall,
        id: call.id,
        data: { call_id: call.id },
      });
      await expect(
        worker.driver.waitForResult(call.id, { timeoutMs: 5_000 }),
      ).resolves.toMatchObject({ state: 'completed' });
      await worker.close({ drainTimeoutMs: 1_000 });
      // Shutting down flushes the batch span processor.
      await tracing.shutdown();

      expect(exports.length).toBeGreaterThan(0);
      expect(exports[0]).toMatchObject({ url: '/v1/traces' });
      expect(exports[0]?.contentType).toContain('application/json');
      const spans = exports.flatMap((request) =>
        ((JSON.parse(request.body) as OtlpExport).resourceSpans ?? []).flatMap((resource) =>
          (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []),
        ),
      );
      const executeTool = spans.find(
        (span) => attributesOf(span)['gen_ai.operation.name'] === 'execute_tool',
      );
      expect(executeTool).toBeDefined();
      expect(attributesOf(executeTool!)).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'lookup_order',
        'gen_ai.tool.call.id': call.id,
      });
    } finally {
      await new Promise((resolve) => collector.close(resolve));
    }
  });
});
