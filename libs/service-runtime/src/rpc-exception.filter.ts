import { type ArgumentsHost, Catch, type RpcExceptionFilter } from '@nestjs/common';
import { ServiceError, toRpcError } from '@service/errors';
import { recordErrorReply } from '@service/tracing';
import type { Logger } from 'pino';
import { type Observable, throwError } from 'rxjs';

/**
 * Every error a message handler throws leaves as an RPC error payload. A {@link ServiceError}
 * keeps its code and message; anything else is logged with its detail and leaves as
 * `internal_error`. With tracing on, the message's span records the reply's code (see
 * `recordErrorReply`).
 */
@Catch()
export class ServiceRpcExceptionFilter implements RpcExceptionFilter<unknown> {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    if (!(exception instanceof ServiceError)) {
      const rpc = host.switchToRpc();
      const context = rpc.getContext<{ getSubject?: () => string }>();
      this.logger.error({ err: exception, subject: context?.getSubject?.() }, 'unhandled error in message handler');
    }
    const payload = toRpcError(exception);
    recordErrorReply(payload);
    return throwError(() => payload);
  }
}
