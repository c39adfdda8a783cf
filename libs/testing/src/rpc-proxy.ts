import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type ProxyMode = 'pass' | 'refuse' | 'hang' | 'error';

export interface RpcProxy {
  readonly url: string;
  mode: ProxyMode;
  /** JSON-RPC calls seen per method, whatever the mode. */
  readonly calls: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Stands between the service and the chain node so a test can make the node refuse connections,
 * hang or fail, and count the calls that reach it.
 */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const sockets = new Set<Socket>();
  const proxy: RpcProxy = { url: '', mode: 'pass', calls: new Map(), close };
  const server = createServer((incoming, response) => void handle(incoming, response));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const { method } = JSON.parse(body.toString()) as { method: string };
    proxy.calls.set(method, (proxy.calls.get(method) ?? 0) + 1);
    if (proxy.mode === 'refuse') return void incoming.socket.destroy();
    if (proxy.mode === 'hang') return;
    if (proxy.mode === 'error') return void response.writeHead(502).end('bad gateway');
    const upstream = httpRequest(target, { method: 'POST', headers: { 'content-type': 'application/json' } }, (reply) => {
      response.writeHead(reply.statusCode ?? 502, { 'content-type': 'application/json' });
      reply.pipe(response);
    });
    upstream.on('error', () => response.writeHead(502).end());
    upstream.end(body);
  }

  async function close(): Promise<void> {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(proxy, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}
