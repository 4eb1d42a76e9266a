import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server as HttpServer,
} from 'node:http';
import type { AddressInfo } from 'node:net';

// Headers about this one hop: Node sets its own on each side.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function forwardable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())),
  );
}

export interface AuthProxy extends AsyncDisposable {
  /** The proxy's origin, `http://127.0.0.1:<port>`. */
  url: string;
}

/**
 * A loopback HTTP proxy that adds `Authorization` to every request, for clients that cannot send
 * headers (the official MCP conformance suite). Everything else passes as sent, Host and Origin
 * included, so the target's own DNS-rebinding guard judges what the client really sent; bodies
 * stream both ways, so SSE events arrive as the target writes them.
 */
export async function startAuthProxy(target: string, authorization: string): Promise<AuthProxy> {
  const to = new URL(target);
  const server: HttpServer = createServer((incoming, outgoing) => {
    const upstream = httpRequest(
      {
        hostname: to.hostname,
        port: to.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...forwardable(incoming.headers), authorization },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
        outgoing.flushHeaders();
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    // A client that hangs up (an SSE stream it is done with) ends the upstream request too.
    outgoing.on('close', () => upstream.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
