import { type ArgumentsHost, Catch, type RpcExceptionFilter } from '@nestjs/common';
import { ServiceError, toRpcError } from '@service/errors';
import type { Logger } from 'pino';
import { type Observable, throwError } from 'rxjs';

/**
 * Every error a message handler throws leaves as an RPC error payload. A {@link ServiceError}
 * keeps its code and message; anything else is logged with its detail and leaves as
 * `internal_error`.
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
    return throwError(() => toRpcError(exception));
  }
}
