import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** A test's upstream MCP server on a loopback port. */
export interface LocalMcpServer extends AsyncDisposable {
  /** Its Streamable HTTP endpoint. */
  url: string;
}

/**
 * Serves MCP over Streamable HTTP on a loopback port, a server from `build` per session. Sessions
 * let an upstream ask its client: the answer to a sampling or elicitation request comes in a POST
 * of its own, which only the session's server can match to the tool call waiting on it.
 */
export async function serveMcpSessions(build: () => Server | McpServer): Promise<LocalMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: HttpServer = createServer((request, response) => {
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (existing !== undefined) {
      void existing.handleRequest(request, response);
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    const server = build();
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
      void server.close();
    };
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async [Symbol.asyncDispose]() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
