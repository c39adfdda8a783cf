/** What the relay and the consumers log through (a pino logger fits). */
export interface EventLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}
