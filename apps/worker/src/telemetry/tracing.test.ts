import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { startTracing } from './tracing';

describe('startTracing', () => {
  afterAll(() => trace.disable());

  it('uses a no-op tracer when no OTLP endpoint is configured', async () => {
    const tracing = startTracing({
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
      OTEL_SERVICE_NAME: 'toolgate-worker',
    });
    expect(tracing.exporting).toBe(false);
    expect(tracing.tracer.startSpan('noop').isRecording()).toBe(false);
    await tracing.shutdown();
  });

  it('exports spans over OTLP/HTTP to <endpoint>/v1/traces', async () => {
    const requests: { url: string | undefined; bytes: number }[] = [];
    const server = createServer((request, response) => {
      let bytes = 0;
      request.on('data', (chunk: Buffer) => (bytes += chunk.length));
      request.on('end', () => {
        requests.push({ url: request.url, bytes });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const tracing = startTracing({
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_SERVICE_NAME: 'toolgate-worker-test',
      });
      expect(tracing.exporting).toBe(true);
      tracing.tracer.startSpan('execute_tool sleepy').end();
      // Shutting down flushes the batch.
      await tracing.shutdown();
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ url: '/v1/traces' });
      expect(requests[0]!.bytes).toBeGreaterThan(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
