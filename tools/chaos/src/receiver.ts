import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  /** The registration's path on the receiver (`/r0`, `/r1`...). */
  readonly path: string;
  readonly serviceEventId: string;
  readonly body: string;
}

/** A loopback webhook receiver that answers 200 to everything and keeps what it got. */
export class LoopbackReceiver {
  readonly received: ReceivedDelivery[] = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.received.push({
          path: request.url ?? '',
          serviceEventId: String(request.headers['service-event-id'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        });
        response.writeHead(200).end();
      });
    });
    // Keep-alive sockets would hold close() open.
    this.server.keepAliveTimeout = 1;
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
