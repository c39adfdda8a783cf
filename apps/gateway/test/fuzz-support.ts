import { isErrorCode } from '@service/errors';
import { raw } from './helpers.js';

/** The part of the gateway's OpenAPI document the fuzzer reads. */
export interface Schema {
  readonly $ref?: string;
  readonly type?: string;
  readonly format?: string;
  readonly enum?: readonly unknown[];
  readonly example?: unknown;
  readonly default?: unknown;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly items?: Schema;
  readonly minItems?: number;
  readonly minimum?: number;
  readonly oneOf?: readonly Schema[];
  readonly allOf?: readonly Schema[];
}

interface Parameter {
  readonly in: string;
  readonly name: string;
  readonly required?: boolean;
  readonly schema?: Schema;
}

interface Operation {
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly content?: Readonly<Record<string, { readonly schema?: Schema }>> };
}

export interface OpenApiDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
  readonly components: { readonly schemas: Readonly<Record<string, Schema>> };
}

export interface Route {
  readonly method: string;
  /** As documented: `/v2/wallets/{id}`. */
  readonly template: string;
  readonly parameters: readonly Parameter[];
  readonly body?: Schema;
}

/** Ids of real resources of the fuzzing organization, by `<family>:<name>` (`wallets:id`) or path parameter name. */
export type Fixtures = Readonly<Record<string, string>>;

export interface FuzzRequest {
  readonly method: string;
  /** Sent as written, without URL normalisation. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

export interface FuzzCase {
  readonly route: string;
  /** The mutation's class, to group findings by. */
  readonly kind: string;
  /** What exactly was changed, to reproduce it. */
  readonly mutation: string;
  readonly request: FuzzRequest;
  /**
   * The error body shape the route promises: the MicroVault routes' own, or, for a spelling of
   * their path the gateway may not recognise as theirs, either.
   */
  readonly family: ErrorFamily;
  /** A stricter promise of this class than the invariants, or none. */
  readonly expect?: (status: number) => string | undefined;
}

export type ErrorFamily = 'standard' | 'microvault' | 'either';

export type Outcome = { readonly status: number; readonly text: string } | { readonly failure: string };

const EVM_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const TX_HASH = `0x${'ab'.repeat(32)}`;
/** Receivers on loopback are refused at once, so no registration the fuzzer makes reaches the network. */
export const LOOPBACK_RECEIVER = 'http://127.0.0.1:9/fuzz';
export const STRATEGY = { usdc: [{ yieldSourceId: 'service-jaaa-usdc-vault', pct: 100 }] };
const PLACEHOLDER = '__fuzz_placeholder__';
const DEPTH = 1_000;
const UNKNOWN_KEYS = 5_000;
const MICROVAULT_PATH = '/v2/microvaults/';
/** Well past the gateway's body limit of about 64 KiB. */
const OVERSIZE_BYTES = 256 * 1024;

/** Deterministic pseudo-random numbers (mulberry32), so one seed gives one stream of requests. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('nothing to pick from');
    return item;
  }

  /** A version-4 UUID made of this stream's numbers. */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    hex[12] = '4';
    hex[16] = '89ab'[Math.floor(this.next() * 4)] ?? '8';
    const text = hex.join('');
    return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const shuffled = [...items];
    for (let index = shuffled.length - 1; index > 0; index -= 1) {
      const other = Math.floor(this.next() * (index + 1));
      [shuffled[index], shuffled[other]] = [shuffled[other] as T, shuffled[index] as T];
    }
    return shuffled;
  }
}

/** Every operation of the document with its parameters and its request body's schema, `$ref`s resolved. */
export function routesOf(document: OpenApiDocument): Route[] {
  return Object.entries(document.paths).flatMap(([template, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const body = operation.requestBody?.content?.['application/json']?.schema;
      return {
        method: method.toUpperCase(),
        template,
        parameters: operation.parameters ?? [],
        ...(body ? { body: resolved(body, document) } : {}),
      };
    }),
  );
}

function resolved(schema: Schema, document: OpenApiDocument): Schema {
  const { $ref, properties, items, oneOf, allOf, ...rest } = schema;
  if ($ref) {
    const target = document.components.schemas[$ref.replace('#/components/schemas/', '')];
    if (!target) throw new Error(`the document has no ${$ref}`);
    return resolved(target, document);
  }
  return {
    ...rest,
    ...(properties
      ? { properties: Object.fromEntries(Object.entries(properties).map(([name, child]) => [name, resolved(child, document)])) }
      : {}),
    ...(items ? { items: resolved(items, document) } : {}),
    ...(oneOf ? { oneOf: oneOf.map((child) => resolved(child, document)) } : {}),
    ...(allOf ? { allOf: allOf.map((child) => resolved(child, document)) } : {}),
  };
}

/**
 * Values the schema alone does not make valid, by field name and type: its examples would register
 * receivers on the internet, and a strategy update's allocations are a free-form object.
 */
const VALID_BY_NAME: Readonly<Record<string, unknown>> = {
  'url:string': LOOPBACK_RECEIVER,
  'address:string': EVM_ADDRESS,
  'destinationAddress:string': EVM_ADDRESS,
  'allocations:object': STRATEGY,
  'txHash:string': TX_HASH,
  // The first of the enum ("none") refuses the example's thresholdUsd.
  'withdrawals:string': 'above_threshold',
};

/** A value the schema accepts, the documented example where there is one. */
function validValue(schema: Schema, name: string, random: Random): unknown {
  const named = VALID_BY_NAME[`${name}:${schema.type ?? ''}`];
  if (named !== undefined) return named;
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const variant = schema.oneOf?.[0] ?? schema.allOf?.[0];
  if (variant) return validValue(variant, name, random);
  switch (schema.type) {
    case 'string':
      if (schema.format === 'uuid') return random.uuid();
      return schema.format === 'date-time' ? new Date(Date.now() + 86_400_000).toISOString() : 'fuzz';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => validValue(schema.items ?? {}, `${name}[]`, random));
    default:
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, child]) => [key, validValue(child, key, random)]));
  }
}

/** A path parameter naming a real resource where the organization has one, else a well-formed id. */
function pathValue(route: Route, name: string, fixtures: Fixtures, random: Random): string {
  const family = route.template.slice('/v2/'.length, route.template.indexOf('/{'));
  const known = fixtures[`${family}:${name}`] ?? fixtures[name];
  if (known !== undefined) return known;
  const fixed: Readonly<Record<string, string>> = {
    gVaultId: 'service-ustb-vault',
    address: EVM_ADDRESS,
    chain: 'ethereum_sepolia',
    legIndex: '0',
  };
  return fixed[name] ?? random.uuid();
}

/**
 * `path` with its remaining `{name}`s filled in from the template, documented as parameters or not
 * (the deprecated payout approve documents only `legIndex`).
 */
const filledIn = (route: Route, path: string, fixtures: Fixtures, random: Random) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValue(route, name, fixtures, random)));

/** A valid request of `route`, its body as an object (undefined for a route without one). */
interface ValidRequest {
  readonly path: string;
  readonly query: readonly string[];
  readonly headers: Record<string, string>;
  readonly body?: Record<string, unknown>;
}

function validRequest(route: Route, fixtures: Fixtures, random: Random): ValidRequest {
  const query: string[] = [];
  const headers: Record<string, string> = {};
  for (const parameter of route.parameters) {
    if (parameter.in === 'query' && parameter.required)
      query.push(`${parameter.name}=${encodeURIComponent(String(validValue(parameter.schema ?? {}, parameter.name, random)))}`);
    if (parameter.in === 'header') headers[parameter.name.toLowerCase()] = `fuzz-${random.uuid()}`;
  }
  const body = route.body ? (validValue(route.body, 'body', random) as Record<string, unknown>) : undefined;
  return { path: filledIn(route, route.template, fixtures, random), query, headers, ...(body ? { body } : {}) };
}

const withQuery = (path: string, query: readonly string[]) => (query.length > 0 ? `${path}?${query.join('&')}` : path);

/** A field of a valid body: where it is, its value and, where the document says, its schema. */
interface Leaf {
  readonly path: readonly (string | number)[];
  readonly value: unknown;
  readonly schema?: Schema;
  /** A field of the DTO itself rather than inside a free-form value. */
  readonly declared: boolean;
}

function leavesOf(value: unknown, schema: Schema | undefined, path: readonly (string | number)[] = []): Leaf[] {
  const here: Leaf = { path, value, ...(schema ? { schema } : {}), declared: schema !== undefined };
  if (Array.isArray(value))
    return [...(path.length > 0 ? [here] : []), ...value.flatMap((item, index) => leavesOf(item, schema?.items, [...path, index]))];
  if (typeof value === 'object' && value !== null) {
    const children = Object.entries(value).flatMap(([key, child]) => leavesOf(child, schema?.properties?.[key], [...path, key]));
    return [...(path.length > 0 ? [here] : []), ...children];
  }
  return [here];
}

/** The body's JSON text with the field at `path` written as the raw JSON `fragment`. */
function withField(body: Record<string, unknown>, path: readonly (string | number)[], fragment: string): string {
  const copy = structuredClone(body);
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1);
  if (last === undefined) throw new Error('a field needs a path');
  parent[last] = PLACEHOLDER;
  return JSON.stringify(copy).replace(`"${PLACEHOLDER}"`, () => fragment);
}

/** The body's JSON text with raw `members` added after its own (later duplicates win in JSON.parse). */
const withMembers = (body: Record<string, unknown>, members: string) => {
  const text = JSON.stringify(body);
  return `${text.slice(0, -1)}${text === '{}' ? '' : ','}${members}}`;
};

const deepArray = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const deepObject = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
const unknownKeys = Array.from({ length: UNKNOWN_KEYS }, (_, index) => `"k${index}":0`).join(',');

/** Numbers and amounts at and past what int4, int8, doubles and six-decimal USD hold. */
const NUMBER_LIMITS = [
  '"9223372036854775807.000000"',
  '"9223372036854775808"',
  '9223372036854775807',
  '-9223372036854775809',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '1e309',
  '-1e309',
  '-0',
  '"-0.000000"',
  '0.0000001',
  '"1e6"',
  '"NaN"',
  '"Infinity"',
  '" 1.000000"',
];
/** Past int8 micros (9,223,372,036,854.775807 USD): no amount field may accept these. */
const UNREPRESENTABLE_AMOUNTS = new Set(['"9223372036854775807.000000"', '"9223372036854775808"', '9223372036854775807', '1e309']);

const statusIs =
  (...wanted: number[]) =>
  (status: number) =>
    wanted.includes(status) ? undefined : `expected ${wanted.join(' or ')}`;

interface BodyMutation {
  readonly kind: string;
  readonly mutation: string;
  readonly body: string;
  readonly expect?: (status: number) => string | undefined;
}

/** One mutation of one field of a valid body per class, the field and value picked by `random`. */
function fieldMutations(body: Record<string, unknown>, schema: Schema, random: Random): BodyMutation[] {
  const leaves = leavesOf(body, schema);
  if (leaves.length === 0) return [];
  const field = (leaf: Leaf) => leaf.path.join('.');
  const at = (kind: string, leaf: Leaf, label: string, fragment: string, expect?: BodyMutation['expect']): BodyMutation => ({
    kind,
    mutation: `body field ${field(leaf)} = ${label}`,
    body: withField(body, leaf.path, fragment),
    ...(expect ? { expect } : {}),
  });
  const strings = leaves.filter((leaf) => leaf.declared && leaf.schema?.type === 'string');
  const amounts = leaves.filter((leaf) => /usd$|amount/i.test(String(leaf.path.at(-1))));
  const limit = random.pick(NUMBER_LIMITS);
  const amount = amounts.length > 0 ? random.pick(amounts) : random.pick(leaves);
  const nul = strings.length > 0 ? random.pick(strings) : random.pick(leaves);
  const original = (leaf: Leaf) => JSON.stringify(leaf.value);
  const wrong = (leaf: Leaf) => random.pick(['true', '123', '"fuzz"', '[]', '{}', `[${original(leaf)}]`, `{"value":${original(leaf)}}`]);
  const wrongLeaf = random.pick(leaves);
  return [
    at('body.null', random.pick(leaves), 'null', 'null'),
    at(
      'body.nul-character',
      nul,
      'a string with \\u0000',
      JSON.stringify(`${typeof nul.value === 'string' ? nul.value : 'fuzz'}\u0000`),
      nul.declared && nul.schema?.type === 'string' ? statusIs(400) : undefined,
    ),
    at('body.long-string', random.pick(leaves), 'a 50,000-character string', JSON.stringify('a'.repeat(50_000))),
    at(
      'body.number-limit',
      amount,
      limit,
      limit,
      amounts.includes(amount) && UNREPRESENTABLE_AMOUNTS.has(limit) ? statusIs(400) : undefined,
    ),
    at('body.wrong-type', wrongLeaf, 'a value of another type', wrong(wrongLeaf)),
    at('body.deep-array', random.pick(leaves), `arrays nested ${DEPTH} deep`, deepArray, statusIs(400, 413)),
    at('body.deep-object', random.pick(leaves), `objects nested ${DEPTH} deep`, deepObject, statusIs(400, 413)),
    at('body.unknown-keys-in-field', random.pick(leaves), `an object of ${UNKNOWN_KEYS} keys`, `{${unknownKeys}}`),
    at(
      'body.prototype-keys-in-field',
      random.pick(leaves),
      'an object with __proto__ and constructor keys',
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    ),
  ];
}

/** Mutations of the body's members as a whole: duplicates, unknown keys, prototype keys. */
function memberMutations(body: Record<string, unknown>, random: Random): BodyMutation[] {
  const keys = Object.keys(body);
  const duplicated = keys.length > 0 ? random.pick(keys) : 'requestId';
  const prototypeKey = random.pick(['__proto__', 'constructor', 'prototype']);
  return [
    {
      kind: 'body.duplicate-key-last-null',
      mutation: `duplicate key ${duplicated}, the last one null`,
      body: withMembers(body, `"${duplicated}":null`),
    },
    { kind: 'body.unknown-keys', mutation: `${UNKNOWN_KEYS} unknown keys beside the valid ones`, body: withMembers(body, unknownKeys) },
    {
      kind: 'body.prototype-key',
      mutation: `a top-level "${prototypeKey}" key`,
      body: withMembers(body, `"${prototypeKey}":{"polluted":true,"prototype":{"polluted":true}}`),
    },
  ];
}

interface WholeBody {
  readonly kind: string;
  readonly mutation: string;
  readonly body: string | Buffer;
  readonly contentType?: string;
  readonly expect?: (status: number) => string | undefined;
}

/** Bodies that are not a JSON object, or not JSON, or too large, or sent as another type. */
function wholeBodies(valid: string, random: Random): WholeBody[] {
  const nonJson = random.pick(['not json', '{"a":', "{'a':1}", '{"a":1,}', '{"a" 1}', 'NaN', '\u0000']);
  const nonObject = random.pick(['[]', `[${valid}]`, '"fuzz"', '42', 'null', 'true', '-0', '1e309']);
  return [
    { kind: 'whole.empty-json', mutation: 'an empty body with Content-Type: application/json', body: '' },
    { kind: 'whole.non-json', mutation: `the body ${JSON.stringify(nonJson)}`, body: nonJson },
    { kind: 'whole.non-object', mutation: `the JSON ${nonObject.slice(0, 40)} as the whole body`, body: nonObject },
    {
      kind: 'whole.invalid-utf8',
      mutation: 'a JSON string of invalid UTF-8 bytes',
      body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
    },
    { kind: 'whole.byte-order-mark', mutation: 'the valid body after a byte order mark', body: `\ufeff${valid}` },
    { kind: 'whole.text-plain', mutation: 'the valid body as text/plain', body: valid, contentType: 'text/plain' },
    {
      kind: 'whole.oversize',
      mutation: `a ${OVERSIZE_BYTES / 1024} KiB body (an unknown field's long string)`,
      body: `{"padding":"${'x'.repeat(OVERSIZE_BYTES)}"${valid === '{}' ? '}' : `,${valid.slice(1)}`}`,
      expect: statusIs(413),
    },
  ];
}

interface QueryMutation {
  readonly kind: string;
  readonly query: string;
  readonly expect?: (status: number) => string | undefined;
}

const BAD_LIMITS = ['0', '-1', '101', '1e3', '1000000000000', '99999999999999999999', 'NaN', '10.5', 'abc'];
const BAD_CURSORS = [
  'garbage',
  Buffer.from('{"id":"x"}').toString('base64url'),
  Buffer.from(`{"createdAt":"9999-99-99","id":"' OR 1=1--"}`).toString('base64url'),
  Buffer.from([0xff, 0xfe, 0xfd]).toString('base64url'),
  'eyJ',
  'a'.repeat(4_000),
  '%00',
  '%zz',
];
const BAD_VALUES = ['%00', 'not-a-uuid', '__proto__', '2026-13-45', 'a'.repeat(2_000), '%E2%80%AE', '%zz', ''];
const ODD_QUERIES = ['&&&', '=', '=1', 'limit', '%', 'a=%E0%A4%A', `x=${'y'.repeat(20_000)}`, 'a[b]=1', 'a[]=1&a[]=2'];

/** One mutation of the query string per class the route's documented parameters allow. */
function queryMutations(route: Route, random: Random): QueryMutation[] {
  const documented = route.parameters.filter((parameter) => parameter.in === 'query');
  const single = documented.filter((parameter) => parameter.schema?.type !== 'array');
  const names = new Set(documented.map((parameter) => parameter.name));
  const mutations: QueryMutation[] = [
    { kind: 'query.unknown-parameter', query: `${random.pick(['foo', 'verbose', 'limitt', 'LIMIT'])}=1`, expect: statusIs(400) },
    { kind: 'query.prototype-parameter', query: `${random.pick(['__proto__', 'constructor', 'hasOwnProperty', '__proto__[polluted]'])}=1` },
    { kind: 'query.odd-syntax', query: random.pick(ODD_QUERIES) },
  ];
  if (single.length > 0) {
    const { name } = random.pick(single);
    const value = name === 'limit' ? ['10', '20'] : ['a', 'b'];
    mutations.push({ kind: 'query.repeated-single-valued', query: `${name}=${value[0]}&${name}=${value[1]}`, expect: statusIs(400) });
  }
  if (names.has('limit'))
    mutations.push({ kind: 'query.limit-out-of-range', query: `limit=${random.pick(BAD_LIMITS)}`, expect: statusIs(400) });
  if (names.has('cursor')) mutations.push({ kind: 'query.bad-cursor', query: `cursor=${random.pick(BAD_CURSORS)}` });
  if (documented.length > 0)
    mutations.push({ kind: 'query.bad-value', query: `${random.pick(documented).name}=${random.pick(BAD_VALUES)}` });
  return mutations;
}

/** Ways to write a path that a careless router or authenticator reads as another one. */
export function pathSpellings(path: string): { readonly spelling: string; readonly path: string }[] {
  const rest = path.slice('/v2/'.length);
  const [first = '', ...others] = rest.split('/');
  const lastSlash = path.lastIndexOf('/');
  const encodedFirst = `%${(first.codePointAt(0) ?? 0).toString(16)}${first.slice(1)}`;
  return [
    { spelling: 'as documented', path },
    { spelling: 'percent-encoded letter in the version', path: `/%762/${rest}` },
    { spelling: 'percent-encoded digit in the version', path: `/v%32/${rest}` },
    { spelling: 'percent-encoded letter in a segment', path: `/v2/${[encodedFirst, ...others].join('/')}` },
    { spelling: '%2F for the last slash', path: `${path.slice(0, lastSlash)}%2F${path.slice(lastSlash + 1)}` },
    { spelling: '%2F after the version', path: `/v2%2F${rest}` },
    { spelling: 'doubled leading slash', path: `/${path}` },
    { spelling: 'doubled slash after the version', path: `/v2//${rest}` },
    { spelling: 'dot segment', path: `/v2/./${rest}` },
    { spelling: 'dot-dot segment', path: `/v2/x/../${rest}` },
    { spelling: 'percent-encoded dot segment', path: `/v2/%2e/${rest}` },
    { spelling: 'upper-case version', path: `/V2/${rest}` },
    { spelling: 'upper-case segment', path: `/v2/${[first.toUpperCase(), ...others].join('/')}` },
    { spelling: 'trailing slash', path: `${path}/` },
  ];
}

const BAD_PATH_VALUES = [
  'not-a-uuid',
  '%00',
  '..',
  '%2e%2e',
  'a'.repeat(2_000),
  '%E2%80%AE',
  '00000000-0000-0000-0000-000000000000',
  '-1',
  '1e309',
  '%zz',
  '__proto__',
  'constructor',
];

/** A request of `route` with the valid parts and a credential. */
function requestOf(
  route: Route,
  valid: ValidRequest,
  token: string,
  change: { path?: string; query?: string; body?: string | Buffer; contentType?: string },
): FuzzRequest {
  const query = change.query === undefined ? valid.query : [...valid.query, change.query];
  const body = change.body ?? (valid.body ? JSON.stringify(valid.body) : undefined);
  return {
    method: route.method,
    path: withQuery(change.path ?? valid.path, query),
    headers: {
      authorization: `Bearer ${token}`,
      ...valid.headers,
      ...(body === undefined ? {} : { 'content-type': change.contentType ?? 'application/json' }),
    },
    ...(body === undefined ? {} : { body }),
  };
}

/** The error family of `route` when its path is spelled `spelling`. */
const familyOf = (route: Route, documented: boolean): ErrorFamily =>
  !route.template.startsWith(MICROVAULT_PATH) ? 'standard' : documented ? 'microvault' : 'either';

/** Every mutation class `route` takes, each once, the details picked by `random`. */
function casesOf(route: Route, fixtures: Fixtures, token: string, random: Random): FuzzCase[] {
  const valid = validRequest(route, fixtures, random);
  const name = `${route.method} ${route.template}`;
  const of = (
    kind: string,
    mutation: string,
    change: Parameters<typeof requestOf>[3],
    expect?: FuzzCase['expect'],
    documented = true,
  ): FuzzCase => ({
    route: name,
    kind,
    mutation,
    request: requestOf(route, valid, token, change),
    family: familyOf(route, documented),
    ...(expect ? { expect } : {}),
  });
  const cases: FuzzCase[] = [];
  if (valid.body && route.body) {
    for (const each of [...fieldMutations(valid.body, route.body, random), ...memberMutations(valid.body, random)]) {
      cases.push(of(each.kind, each.mutation, { body: each.body }, each.expect));
    }
  }
  if (route.method !== 'GET' && route.method !== 'DELETE') {
    for (const each of wholeBodies(JSON.stringify(valid.body ?? {}), random)) {
      cases.push(
        of(each.kind, each.mutation, { body: each.body, ...(each.contentType ? { contentType: each.contentType } : {}) }, each.expect),
      );
    }
  }
  if (route.method === 'GET') {
    for (const each of queryMutations(route, random))
      cases.push(of(each.kind, `query ${each.query.slice(0, 80)}`, { query: each.query }, each.expect));
  }
  const pathParameters = [...route.template.matchAll(/\{(\w+)\}/g)].map((match) => match[0]);
  if (pathParameters.length > 0) {
    const parameter = random.pick(pathParameters);
    const bad = random.pick(BAD_PATH_VALUES);
    const path = filledIn(route, route.template.replace(parameter, bad), fixtures, random);
    cases.push(of('path.bad-parameter', `path parameter ${parameter} = ${bad.slice(0, 40)}`, { path }));
  }
  for (const { spelling, path } of random.shuffle(pathSpellings(valid.path).slice(1)).slice(0, 3)) {
    cases.push(of('path.spelling', `path spelled with ${spelling}: ${path.slice(0, 120)}`, { path }, undefined, false));
  }
  return cases;
}

/** Requests that delete or replace the fixtures go last, so the others find them. */
const destroys = (fuzzCase: FuzzCase) => fuzzCase.request.method === 'DELETE' || /\/(roll|cancel)\b/.test(fuzzCase.route);

/** The whole seeded stream: every route's mutations, shuffled, those that destroy fixtures last. */
export function fuzzCases(routes: readonly Route[], fixtures: Fixtures, token: string, random: Random): FuzzCase[] {
  const cases = random.shuffle(routes.flatMap((route) => casesOf(route, fixtures, token, random)));
  return [...cases.filter((each) => !destroys(each)), ...cases.filter(destroys)];
}

/** Every spelling of every route's valid request with no credential: 401 unauthenticated, whatever the spelling. */
export function unauthenticatedCases(routes: readonly Route[], fixtures: Fixtures, random: Random): FuzzCase[] {
  return routes.flatMap((route) => {
    const valid = validRequest(route, fixtures, random);
    const body = valid.body ? JSON.stringify(valid.body) : undefined;
    return pathSpellings(valid.path).map(({ spelling, path }) => ({
      route: `${route.method} ${route.template}`,
      kind: `no credential, ${spelling}`,
      mutation: `no credential, path ${path.slice(0, 120)}`,
      request: {
        method: route.method,
        path: withQuery(path, valid.query),
        headers: { ...valid.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body }),
      },
      family: familyOf(route, spelling === 'as documented'),
      expect: statusIs(401),
    }));
  });
}

/** Sends `fuzzRequest` as written (see `raw`); a connection that fails or an answer later than `timeoutMs` is a failure. */
export async function send(base: string, fuzzRequest: FuzzRequest, timeoutMs: number): Promise<Outcome> {
  try {
    const { status, text } = await raw(base, { ...fuzzRequest, timeoutMs });
    return { status, text };
  } catch (error) {
    return { failure: `connection failed: ${(error as Error).message}` };
  }
}

const GENERIC_MESSAGE = 'The request is invalid.';

const isString = (value: unknown): value is string => typeof value === 'string';
const keysAre = (body: Record<string, unknown>, keys: readonly string[]) => Object.keys(body).sort().join() === [...keys].sort().join();

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** `{error: <code>, message}`: the MicroVault family's error body. */
const isMicroVaultBody = (body: Record<string, unknown>) =>
  keysAre(body, ['error', 'message']) && isString(body['error']) && /^[a-z_]+$/.test(body['error']) && isString(body['message']);
/** `{error, code, ...details}` with a stable code. */
const isStandardBody = (body: Record<string, unknown>) => isString(body['error']) && isString(body['code']) && isErrorCode(body['code']);

function shapeProblem(fuzzCase: FuzzCase, status: number, body: Record<string, unknown>): string | undefined {
  if (status === 401) {
    // A request without a credential is refused for that alone.
    const code = fuzzCase.request.headers['authorization'] === undefined ? body['code'] === 'unauthenticated' : isString(body['code']);
    const shaped =
      keysAre(body, ['error', 'message', 'code']) &&
      isString(body['error']) &&
      (isString(body['message']) || body['message'] === null) &&
      code;
    return shaped ? undefined : '401 body is not {error, message, code: unauthenticated}';
  }
  const family = status === 429 ? 'standard' : fuzzCase.family;
  const shaped = {
    standard: isStandardBody(body),
    microvault: isMicroVaultBody(body),
    either: isStandardBody(body) || isMicroVaultBody(body),
  }[family];
  if (!shaped) return `${status} body is not ${family === 'microvault' ? '{error: <code>, message}' : '{error, code} with a stable code'}`;
  const message = isMicroVaultBody(body) ? body['message'] : body['error'];
  return status === 400 && message === GENERIC_MESSAGE ? `400 says only "${GENERIC_MESSAGE}"` : undefined;
}

/** 503 only as the retryable unavailability of the interface (the MicroVault family's shape on its routes). */
function unavailableProblem(fuzzCase: FuzzCase, body: Record<string, unknown> | undefined): string | undefined {
  if (!body) return '503 body is not JSON';
  const standard =
    keysAre(body, ['error', 'code', 'retryable']) &&
    isString(body['error']) &&
    body['code'] === 'service_temporarily_unavailable' &&
    body['retryable'] === true;
  const microvault = fuzzCase.family !== 'standard' && isMicroVaultBody(body) && body['error'] === 'service_temporarily_unavailable';
  return standard || microvault ? undefined : '503 body is not {error, code: service_temporarily_unavailable, retryable: true}';
}

/** What the response breaks of the promise, or undefined when it keeps it. */
export function problemOf(fuzzCase: FuzzCase, outcome: Outcome): string | undefined {
  if ('failure' in outcome) return outcome.failure;
  const { status } = outcome;
  const body = parsed(outcome.text);
  if (status === 503) return unavailableProblem(fuzzCase, body);
  if (status >= 500) return `status ${status}`;
  const expected = fuzzCase.expect?.(status);
  if (expected) return `${expected}, got ${status}`;
  if (status < 400) return undefined;
  if (!body) return `${status} body is not a JSON object`;
  return shapeProblem(fuzzCase, status, body);
}

/** The request as sent, short enough to read, for a failure report. */
export function described(fuzzRequest: FuzzRequest): string {
  const { authorization, ...headers } = fuzzRequest.headers;
  const body =
    fuzzRequest.body === undefined
      ? ''
      : ` body (${fuzzRequest.body.length} bytes) ${JSON.stringify(fuzzRequest.body.toString().slice(0, 160))}`;
  return `${fuzzRequest.method} ${fuzzRequest.path.slice(0, 160)} ${authorization ? 'with' : 'without'} credential, headers ${JSON.stringify(headers)}${body}`;
}
