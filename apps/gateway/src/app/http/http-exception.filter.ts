import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import { type ErrorBody, type RpcErrorPayload, ServiceError, toHttpErrorBody, toRpcError } from '@service/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { PING_PATH } from '../system/system.controller.js';
import { JSON_BODY_LIMITS } from './json-body.js';

/**
 * Every error leaves the gateway in the interface's shape with a stable code; nothing internal
 * (stack, SQL, host names) reaches the body. Ping's 500 is `{error}` only, as the interface says.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const payload = this.toPayload(exception, request);
    if (payload.status >= 500 && payload.code === 'internal_error') {
      this.logger.error({ err: exception, requestId: request.requestId, url: request.url }, 'request failed');
    }
    // The route that matched decides the family's shape, as it decides authentication: not the spelling of the path.
    const route = request.routeOptions.url;
    const body = route === PING_PATH && payload.status === 500 ? { error: payload.message } : bodyFor(route, payload);
    void reply.status(payload.status).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  private toPayload(exception: unknown, request: FastifyRequest): RpcErrorPayload {
    if (exception instanceof ServiceError) return toRpcError(exception);
    const status = exception instanceof HttpException ? exception.getStatus() : statusOf(exception);
    if (status === 404) {
      return { status, code: 'validation_error', message: `No route matches ${request.method} ${request.url.split('?')[0]}.` };
    }
    if (status === 413)
      return { status, code: 'request_too_large', message: `The request body is larger than ${JSON_BODY_LIMITS.bytes} bytes.` };
    if (status === 415) return { status, code: 'validation_error', message: 'Send the body as application/json.' };
    if (status !== undefined && status >= 400 && status < 500)
      return { status: 400, code: 'validation_error', message: clientErrorMessage(exception) };
    return toRpcError(exception);
  }
}

/**
 * What was wrong with a request that Fastify refused before a handler ran, named: its errors
 * (JSON syntax with the position, a forbidden `__proto__` key, an empty body where one is
 * required, a bad Content-Length) say which rule broke and carry nothing internal.
 */
function clientErrorMessage(exception: unknown): string {
  const message = (exception as { message?: unknown }).message;
  if (typeof message !== 'string' || message === '') return 'The request could not be read as HTTP with a JSON body.';
  const prefix = exception instanceof SyntaxError ? 'The request body is not valid JSON: ' : '';
  return `${prefix}${message.replace(/\.$/, '')}.`;
}

const MICROVAULT_PATH = '/v2/microvaults/';

/**
 * MicroVault routes answer every error as `{error: <code>, message}`, their own family's shape:
 * a rejected request is `invalid_request` whatever the edge's validation called it.
 */
export function bodyFor(route: string | undefined, payload: RpcErrorPayload): ErrorBody {
  if (!route?.startsWith(MICROVAULT_PATH)) return toHttpErrorBody(payload);
  return { error: payload.status === 400 ? 'invalid_request' : payload.code, message: payload.message };
}

/** Fastify's own errors (body parsing, size) carry `statusCode`. */
function statusOf(exception: unknown): number | undefined {
  const status = (exception as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}
