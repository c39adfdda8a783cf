import type { LoggerService } from '@nestjs/common';
import { traceLogFields, tracingEnabled } from '@service/tracing';
import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs, one object per line, with the process name on every line and, when
 * tracing was started before (see @service/tracing), the active span's `traceId` and `spanId`.
 * They go to standard output (pino's default destination) unless `destination` names another.
 */
export function createLogger(name: string, level: string, destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    base: { service: name },
    ...(tracingEnabled() && { mixin: traceLogFields }),
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['*.authorization', '*.secret', '*.password', 'req.headers.authorization'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Lets Nest's own messages go through the same JSON logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
