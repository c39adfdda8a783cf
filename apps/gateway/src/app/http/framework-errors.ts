import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { bodyFor } from './http-exception.filter.js';

/**
 * Requests Fastify refuses before routing: a path that does not percent-decode (`%zz`), or a path
 * parameter longer than any the API takes. They reach no route, so neither the hooks nor the error
 * filter see them; they get the interface's body here instead of Fastify's own (the MicroVault
 * family's shape under its prefix, the only thing the raw path decides).
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error,
  request: FastifyRequest,
  reply: FastifyReply,
) => {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long.' : 'The path is not a valid percent-encoded URL path.';
  const body = bodyFor(request.url, { status: 400, code: 'validation_error', message });
  void reply.status(400).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
};

const CLIENT_ERRORS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    message: 'The request line and headers are larger than 16 KiB.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', message: 'The request was not received in time.' },
};
const MALFORMED = { status: 400, reason: 'Bad Request', message: 'The request is not well-formed HTTP.' };

/**
 * Requests Node's HTTP parser cannot read (headers or a URL over 16 KiB, malformed HTTP), answered
 * in the interface's shape. Ended rather than written and destroyed as Fastify's own handler does:
 * the connection closes once the answer has been written, so a write still pending on the socket
 * is not dropped and the client never sees a hang-up instead of its answer.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const { status, reason, message } = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ error: message, code: 'validation_error' });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
