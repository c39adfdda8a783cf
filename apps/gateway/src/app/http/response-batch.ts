import type { Server } from 'node:http';
import { Socket } from 'node:net';

type WriteCallback = (error?: Error | null) => void;

interface HeldWrite {
  readonly socket: Socket;
  readonly chunk: unknown;
  readonly chunks: Array<{ chunk: unknown; encoding: BufferEncoding }> | undefined;
  readonly encoding: BufferEncoding | undefined;
  readonly callback: WriteCallback;
}

/**
 * Holds every socket write the server's connections start during one event-loop turn until the
 * turn's I/O callbacks have run, then writes them one after the other (`setImmediate`).
 *
 * Why: written as each request finishes, the responses of a busy turn go out interleaved with
 * the reads of the next requests, and each write wakes a client that went back to sleep after
 * the previous one: on a busy gateway most of the cost of a response's `writev` was that wake-up
 * (the same write cost the bare node:http server a third as much). Written together, the first
 * write wakes a client and the others find it awake. A response waits at most for the rest of
 * its turn.
 *
 * It works below HTTP, on each connection's stream implementation (`_write`/`_writev`): the
 * response is complete (`writableEnded`) when the handler ends it, as without this, and the
 * stream itself keeps order, back-pressure and errors (it starts no new write on a socket until
 * the held one has called back). Holding the response higher up, in a Fastify `onSend` hook,
 * made every request await the end of its response (Nest awaits the reply, a thenable that then
 * adds stream listeners), which cost as much as the batching saved.
 *
 * `_write`/`_writev` are Node's stream-implementer hooks, and replacing them on a socket relies on
 * net.Socket's own implementation: the image pins Node exactly (docker/Dockerfile, the Node CI
 * tests it on), and response-batch.spec.ts fails (responses never complete, or arrive out of order)
 * when that implementation changes. What it buys (bench A/B, November 2026): gateway CPU per ping
 * 65-80 -> 55-70 µs and the load generator's 8 µs less, about 15% of the ping route's req/s
 * (GET /v2/system/ping).
 */
export function writeResponsesPerTurn(server: Server): void {
  const held: HeldWrite[] = [];
  const writeAll = () => {
    // A write started while writing the others (a callback that writes) joins this round.
    for (let index = 0; index < held.length; index++) {
      const write = held[index] as HeldWrite;
      try {
        if (write.chunks) Socket.prototype._writev?.call(write.socket, write.chunks, write.callback);
        else Socket.prototype._write.call(write.socket, write.chunk, write.encoding as BufferEncoding, write.callback);
      } catch (error) {
        // Node reports write errors through the callback; should one throw, its stream fails, not the others.
        write.callback(error instanceof Error ? error : new Error(String(error)));
      }
    }
    held.length = 0;
  };
  const hold = (write: HeldWrite) => {
    if (held.push(write) === 1) setImmediate(writeAll);
  };
  server.on('connection', (socket: Socket) => {
    socket._write = (chunk: unknown, encoding: BufferEncoding, callback: WriteCallback) =>
      hold({ socket, chunk, chunks: undefined, encoding, callback });
    socket._writev = (chunks: Array<{ chunk: unknown; encoding: BufferEncoding }>, callback: WriteCallback) =>
      hold({ socket, chunk: undefined, chunks, encoding: undefined, callback });
  });
}
