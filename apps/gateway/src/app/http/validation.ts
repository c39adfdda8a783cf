import { createParamDecorator, type ExecutionContext, type Type } from '@nestjs/common';
import { ApiBody, ApiParam, ApiQuery } from '@nestjs/swagger';
import { ServiceError } from '@service/errors';
import { plainToInstance, TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { getMetadataStorage, IS_ARRAY, IS_OPTIONAL, type ValidationError, ValidationTypes, validateSync } from 'class-validator';
import type { FastifyRequest } from 'fastify';

/** Where an input comes from: only a query refuses unknown and repeated parameters. */
export type InputSource = 'body' | 'query' | 'params';

/** What reading one DTO property needs, taken once from its decorators. */
interface Field {
  readonly name: string;
  /** `@IsOptional`, which skips `null` like a missing value: `null` is read as omitted so no service gets it. */
  readonly optional: boolean;
  /** `@IsArray` or a rule on each item: a query parameter that may be given more than once. */
  readonly repeatable: boolean;
  /** With `@ValidateNested` and `@Type`: the DTO of the object, or of each item of the array. */
  readonly nested?: Type;
  /** class-transformer changes the value (`@Transform`, `@Type` without `@ValidateNested`); any other value is used as parsed. */
  readonly converted: boolean;
}

interface Plan {
  readonly fields: readonly Field[];
  readonly names: ReadonlySet<string>;
}

type Rule = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

const plans = new WeakMap<Type, Plan>();

/** The DTO's properties as its class-validator rules name them, read once per DTO. */
function planOf(dto: Type): Plan {
  let plan = plans.get(dto);
  if (!plan) {
    const rules = new Map<string, Rule[]>();
    for (const rule of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
      rules.set(rule.propertyName, [...(rules.get(rule.propertyName) ?? []), rule]);
    }
    const fields = [...rules].map(([name, own]) => fieldOf(dto, name, own));
    plan = { fields, names: new Set(fields.map((field) => field.name)) };
    plans.set(dto, plan);
  }
  return plan;
}

function fieldOf(dto: Type, name: string, rules: readonly Rule[]): Field {
  const type = defaultMetadataStorage.findTypeMetadata(dto, name);
  const nested = type && rules.some((rule) => rule.type === ValidationTypes.NESTED_VALIDATION) ? (type.typeFunction() as Type) : undefined;
  const transformed = defaultMetadataStorage.findTransformMetadatas(dto, name, TransformationType.PLAIN_TO_CLASS).length > 0;
  return {
    name,
    optional: rules.some((rule) => rule.name === IS_OPTIONAL),
    repeatable: rules.some((rule) => rule.each === true || rule.name === IS_ARRAY),
    nested,
    converted: !nested && (transformed || type !== undefined),
  };
}

const invalid = (message: string) => new ServiceError('validation_error', message);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An instance of `dto` holding only the DTO's own keys of `plain`, so unknown keys cost nothing.
 * class-transformer gets only the values it changes: it copies an object key by key and
 * de-duplicates the keys in quadratic time, which many keys turn into a blocked event loop.
 */
function instanceOf<T extends object>(dto: Type<T>, plain: Record<string, unknown>, path: string): T {
  const values: Record<string, unknown> = {};
  let converted: Record<string, unknown> | undefined;
  for (const field of planOf(dto).fields) {
    if (!Object.hasOwn(plain, field.name)) continue;
    const value = plain[field.name];
    if (value === null && field.optional) continue;
    const at = path + field.name;
    const read = field.nested ? nestedValue(field.nested, value, at) : withoutNul(value, at);
    if (field.converted) (converted ??= {})[field.name] = read;
    else values[field.name] = read;
  }
  return Object.assign(converted ? plainToInstance(dto, converted) : new dto(), values);
}

function nestedValue(dto: Type, value: unknown, at: string): unknown {
  if (Array.isArray(value)) return value.map((item, index) => nestedItem(dto, item, `${at}.${index}`));
  return nestedItem(dto, value, at);
}

/** Anything but an object is left as it came, for `@ValidateNested` to refuse. */
function nestedItem(dto: Type, item: unknown, at: string): unknown {
  return isObject(item) ? instanceOf(dto, item, `${at}.`) : withoutNul(item, at);
}

/** PostgreSQL text and jsonb cannot hold U+0000: a service storing it would fail, so it is refused here. */
function withoutNul(value: unknown, at: string): unknown {
  const below = nulPath(value);
  if (below !== undefined) throw invalid(`${below ? `${at}.${below}` : at} must not contain the NUL character.`);
  return value;
}

/** Where in `value` a string or a key holds U+0000, as a path below it ('' for `value` itself); undefined when nowhere. */
function nulPath(value: unknown): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? '' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of Object.keys(value)) {
    if (key.includes('\0')) return '';
    const below = nulPath((value as Record<string, unknown>)[key]);
    if (below !== undefined) return below ? `${key}.${below}` : key;
  }
  return undefined;
}

/** Parameters the DTO does not name are refused, and so is one given twice that the DTO takes once. */
function checkQuery(plan: Plan, query: Record<string, unknown>): void {
  const unknown = Object.keys(query).filter((key) => !plan.names.has(key));
  if (unknown.length > 0) {
    throw new ServiceError('unknown_parameters', `Unknown query parameter${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`);
  }
  // Fastify's query parser makes an array of a repeated parameter.
  const repeated = plan.fields.find((field) => !field.repeatable && Array.isArray(query[field.name]));
  if (repeated) throw invalid(`${repeated.name} must be given once.`);
}

/** The first broken rule's text; a rule without text is named by its property path. */
function firstMessage(error: ValidationError, path: string): string {
  const at = path + error.property;
  const constraint = Object.values(error.constraints ?? {}).find((text) => text !== '');
  if (constraint) return `${constraint}.`;
  const [child] = error.children ?? [];
  return child ? firstMessage(child, `${at}.`) : `${at} is invalid.`;
}

/**
 * Validates `input` against a contracts DTO. Only the DTO's own keys are read: unknown fields are
 * ignored (bodies, path parameters) or refused with `unknown_parameters` (queries); `null` on an
 * optional field is read as omitted; a broken rule is `validation_error` naming the field.
 */
export function validateInput<T extends object>(dto: Type<T>, input: unknown, from: InputSource): T {
  const plain = input ?? {};
  if (!isObject(plain)) throw invalid('The request body must be a JSON object.');
  const plan = planOf(dto);
  if (from === 'query') checkQuery(plan, plain);
  // Nothing to read or check (e.g. a GET without a query string).
  if (plan.fields.length === 0) return new dto();
  const instance = instanceOf(dto, plain, '');
  const [error] = validateSync(instance, { forbidUnknownValues: false });
  if (error) throw invalid(firstMessage(error, ''));
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
 * DTO make of a query string depends on nothing else, and converting and checking a query
 * against a list's DTO (class-transformer, then class-validator's metadata walk) on every request
 * is a visible share of the gateway's CPU on a list's first page (how to profile:
 * tools/bench/README.md). The instance is shared by the requests with that query string: frozen, with
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
      outcome = frozen(validateInput(dto, query, 'query'));
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
    (_: unknown, host: ExecutionContext) => validateInput(dto, host.switchToHttp().getRequest<FastifyRequest>().body, 'body'),
    [documented(ApiBody({ type: dto }))],
  )();

/** The path parameters, validated against a DTO: a broken rule is `validation_error` naming the parameter. */
export const ValidParams = (dto: Type) =>
  createParamDecorator(
    (_: unknown, host: ExecutionContext) => validateInput(dto, host.switchToHttp().getRequest<FastifyRequest>().params, 'params'),
    [...planOf(dto).names].map((name) => documented(ApiParam({ name, type: String }))),
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
