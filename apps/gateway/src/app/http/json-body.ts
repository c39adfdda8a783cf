import { ServiceError } from '@service/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact text of a JSON body whose route signs it (see {@link SIGNED_BODY_ROUTES}); undefined elsewhere. */
    signedBody?: string;
  }
}

/**
 * Routes whose handler needs the body's exact text besides its parsed value: a stamp is made over
 * those bytes (`POST /v2/approvals/approvers`: the new key's `X-Stamp`). Bounded by the body limit.
 */
export const SIGNED_BODY_ROUTES: ReadonlySet<string> = new Set(['POST /v2/approvals/approvers']);

function keepsSignedBody(request: FastifyRequest): boolean {
  return SIGNED_BODY_ROUTES.has(`${request.method} ${request.routeOptions.url ?? ''}`);
}

/**
 * What one JSON body may hold. The largest request the API takes (a strategy or an allocation
 * list at its item caps, an approver with its public key, a stamped vote) is a few KiB; the nesting
 * of the deepest DTO is 5. Everything a body costs the gateway (parsing, conversion, validation)
 * is bounded by these before any of it runs.
 */
export interface JsonBodyLimits {
  /** Larger bodies are refused with 413 before they are read. */
  readonly bytes: number;
  /** Objects and arrays nested deeper are refused: validation walks them recursively. */
  readonly depth: number;
  /** Object keys in the whole body, nested ones included. */
  readonly keys: number;
}

export const JSON_BODY_LIMITS: JsonBodyLimits = { bytes: 64 * 1024, depth: 32, keys: 1_024 };

/** Fails at a body's first visible character, where trim() would copy the whole body first. */
const BLANK = /^\s*$/;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * One pass over the text, before it is parsed: the nesting depth and the number of object keys
 * (a key is the only thing followed by a colon outside a string). Linear in the body's length,
 * so a body built to be expensive costs what its bytes cost. Returns the broken limit's message.
 */
export function jsonShapeProblem(text: string, limits: JsonBodyLimits): string | undefined {
  let depth = 0;
  let keys = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
      continue;
    }
    switch (code) {
      case QUOTE:
        inString = true;
        break;
      case 0x7b: // {
      case 0x5b: // [
        depth += 1;
        if (depth > limits.depth) return `The request body is nested more than ${limits.depth} levels deep.`;
        break;
      case 0x7d: // }
      case 0x5d: // ]
        depth -= 1;
        break;
      case COLON:
        keys += 1;
        if (keys > limits.keys) return `The request body has more than ${limits.keys} keys.`;
        break;
    }
  }
  return undefined;
}

/**
 * Replaces Fastify's JSON parser with one that (1) reads an empty body as no body, as a client
 * that sends `Content-Type: application/json` on a DELETE or a bodiless POST means it; routes that
 * take a body validate it as `{}`; (2) refuses bodies too deep or too wide with 400
 * `validation_error` naming the limit, before parsing; (3) then parses with Fastify's own parser,
 * which keeps refusing `__proto__` and `constructor.prototype` keys. The text is kept on the
 * request (`signedBody`) for the routes of {@link SIGNED_BODY_ROUTES} only.
 */
export function registerJsonBodyParser(fastify: FastifyInstance, limits: JsonBodyLimits = JSON_BODY_LIMITS): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: limits.bytes }, (request, body, done) => {
    const text = body as string;
    if (BLANK.test(text)) return done(null, undefined);
    const problem = jsonShapeProblem(text, limits);
    if (problem) return done(new ServiceError('validation_error', problem), undefined);
    if (keepsSignedBody(request)) request.signedBody = text;
    // Fastify's default parser is callback style: it answers through `done` and returns nothing.
    void parse(request, text, done);
  });
}
