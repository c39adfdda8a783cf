import { createParamDecorator, type ExecutionContext, type Type } from '@nestjs/common';
import { ApiBody, ApiParam, ApiQuery } from '@nestjs/swagger';
import { ServiceError } from '@service/errors';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, type ValidationError, validateSync } from 'class-validator';
import type { FastifyRequest } from 'fastify';

const knownKeysCache = new WeakMap<Type, ReadonlySet<string>>();

function knownKeys(dto: Type): ReadonlySet<string> {
  let keys = knownKeysCache.get(dto);
  if (!keys) {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
    keys = new Set(metadata.map((entry) => entry.propertyName));
    knownKeysCache.set(dto, keys);
  }
  return keys;
}

function firstMessage(errors: ValidationError[]): string {
  for (const error of errors) {
    const constraint = Object.values(error.constraints ?? {})[0];
    if (constraint) return `${constraint}.`;
    const nested = firstMessage(error.children ?? []);
    if (nested) return nested;
  }
  return 'The request is invalid.';
}

/**
 * Validates `input` against a contracts DTO. Unknown fields are dropped (bodies) or refused with
 * `unknown_parameters` (queries); a broken rule is `validation_error` naming the field.
 */
export function validateInput<T extends object>(dto: Type<T>, input: unknown, rejectUnknown: boolean): T {
  const plain = (input ?? {}) as Record<string, unknown>;
  if (typeof plain !== 'object' || Array.isArray(plain)) {
    throw new ServiceError('validation_error', 'The request body must be a JSON object.');
  }
  const known = knownKeys(dto);
  const keys = Object.keys(plain);
  // Nothing to convert or check (e.g. a GET without a query string): what plainToInstance would build.
  if (keys.length === 0 && known.size === 0) return new dto();
  if (rejectUnknown) {
    const unknown = keys.filter((key) => !known.has(key));
    if (unknown.length > 0) {
      throw new ServiceError('unknown_parameters', `Unknown query parameter${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`);
    }
  }
  const instance = plainToInstance(dto, plain, { excludeExtraneousValues: false });
  const errors = known.size === 0 ? [] : validateSync(instance, { whitelist: true, forbidUnknownValues: false });
  if (errors.length > 0) throw new ServiceError('validation_error', firstMessage(errors));
  return instance;
}

/**
 * Applies an OpenAPI method decorator from a parameter decorator, so the document (and the SDK's
 * types generated from it) shows what these custom decorators accept, as Nest's own `@Body()`,
 * `@Query()` and `@Param()` would.
 */
const documented =
  (decorator: MethodDecorator) =>
  (target: object, key: string | symbol | undefined): void => {
    if (key === undefined) return;
    decorator(target, key, Object.getOwnPropertyDescriptor(target, key) as PropertyDescriptor);
  };

/** Most query strings whose outcome is kept per DTO; the DTO's memory starts over when full. */
const REMEMBERED_QUERIES = 256;
const queryOutcomes = new WeakMap<Type, Map<string, object | ServiceError>>();

/**
 * `validateInput` of a query, remembered by its raw query string: what the query parser and the
 * DTO make of a query string depends on nothing else, and converting and checking an empty
 * query against a list's DTO (class-transformer, then class-validator's metadata walk) was 7 % of
 * the gateway's CPU samples on the first page of GET /v2/wallets (`npm run bench`,
 * BENCH_CPU_PROF=1). The instance is shared by the requests with that query string: frozen, with
 * its lists, so no handler can change another request's input.
 */
export function validQuery<T extends object>(dto: Type<T>, url: string, query: unknown): T {
  const at = url.indexOf('?');
  const raw = at < 0 ? '' : url.slice(at + 1);
  let outcomes = queryOutcomes.get(dto);
  if (!outcomes) {
    outcomes = new Map();
    queryOutcomes.set(dto, outcomes);
  }
  let outcome = outcomes.get(raw);
  if (outcome === undefined) {
    try {
      outcome = frozen(validateInput(dto, query, true));
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      outcome = error;
    }
    if (outcomes.size >= REMEMBERED_QUERIES) outcomes.clear();
    outcomes.set(raw, outcome);
  }
  // A new error each time: its stack and whatever a filter adds are the request's own.
  if (outcome instanceof ServiceError) throw new ServiceError(outcome.code, outcome.message, outcome.details);
  return outcome as T;
}

function frozen<T extends object>(instance: T): T {
  for (const value of Object.values(instance)) if (typeof value === 'object' && value !== null) Object.freeze(value);
  return Object.freeze(instance);
}

/** The query string, validated; unknown parameters are refused. */
export const ValidQuery = (dto: Type) =>
  createParamDecorator(
    (_: unknown, host: ExecutionContext) => {
      const request = host.switchToHttp().getRequest<FastifyRequest>();
      return validQuery(dto, request.url, request.query);
    },
    [documented(ApiQuery({ type: dto, required: false }))],
  )();

/** The JSON body, validated; unknown fields are ignored. */
export const ValidBody = (dto: Type) =>
  createParamDecorator(
    (_: unknown, host: ExecutionContext) => validateInput(dto, host.switchToHttp().getRequest<FastifyRequest>().body, false),
    [documented(ApiBody({ type: dto }))],
  )();

/** The path parameters, validated against a DTO: a broken rule is `validation_error` naming the parameter. */
export const ValidParams = (dto: Type) =>
  createParamDecorator(
    (_: unknown, host: ExecutionContext) => validateInput(dto, host.switchToHttp().getRequest<FastifyRequest>().params, false),
    [...knownKeys(dto)].map((name) => documented(ApiParam({ name, type: String }))),
  )();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path parameter that must be a UUID; anything else is `validation_error`. */
export const UuidParam = (name: string) =>
  createParamDecorator(
    (_: unknown, host: ExecutionContext) => {
      const value = (host.switchToHttp().getRequest<FastifyRequest>().params as Record<string, string>)[name];
      if (typeof value !== 'string' || !UUID.test(value)) throw new ServiceError('validation_error', `${name} must be a UUID.`);
      return value.toLowerCase();
    },
    [documented(ApiParam({ name, type: String, format: 'uuid' }))],
  )();
