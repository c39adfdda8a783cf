import { type ArgumentsHost, Catch, type RpcExceptionFilter } from '@nestjs/common';
import { ServiceError, toRpcError, unavailabilityOf } from '@service/errors';
import { recordErrorReply } from '@service/tracing';
import type { Logger } from 'pino';
import { type Observable, throwError } from 'rxjs';

/**
 * Every error a message handler throws leaves as an RPC error payload. A {@link ServiceError}
 * keeps its code and message; a dependency that cannot be used right now (the database down or
 * restarting) leaves as a retryable `service_temporarily_unavailable` with one warn line naming
 * the reason (a code, no stack: an outage fails every request alike); anything else is logged
 * with its detail and leaves as `internal_error`. With tracing on, the message's span records the
 * reply's code (see `recordErrorReply`).
 */
@Catch()
export class ServiceRpcExceptionFilter implements RpcExceptionFilter<unknown> {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    if (!(exception instanceof ServiceError)) this.log(exception, host);
    const payload = toRpcError(exception);
    recordErrorReply(payload);
    return throwError(() => payload);
  }

  private log(exception: unknown, host: ArgumentsHost): void {
    const subject = host.switchToRpc().getContext<{ getSubject?: () => string }>()?.getSubject?.();
    const unavailable = unavailabilityOf(exception);
    if (unavailable === undefined) {
      this.logger.error({ err: exception, subject }, 'unhandled error in message handler');
    } else {
      this.logger.warn({ subject, unavailable }, 'a dependency is unavailable; answered service_temporarily_unavailable');
    }
  }
}
