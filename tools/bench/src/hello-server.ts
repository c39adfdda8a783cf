/**
 * The baseline: the least a Node HTTP server can do per request on this machine. Started by
 * run.ts in its own process so it does not share an event loop with the load generator; it
 * prints `{"port": N}` once listening on loopback.
 */
import { createServer } from 'node:http';

const server = createServer((_request, response) => {
  const body = JSON.stringify({ message: 'pong' });
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});

const stop = (): void => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// The bench holds our stdin open: if it dies, so does this server.
process.stdin.once('end', stop).resume();
