import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import {
  ARRAY_MAX_SIZE,
  ARRAY_MIN_SIZE,
  getMetadataStorage,
  IS_ARRAY,
  IS_ENUM,
  IS_IN,
  IS_INT,
  IS_ISO8601,
  IS_LENGTH,
  IS_STRING,
  IS_URL,
  IS_UUID,
  IsArray,
  IsInt,
  IsString,
  Length,
  MATCHES,
  Matches,
  MAX,
  MAX_LENGTH,
  MaxLength,
  MIN_LENGTH,
  ValidationTypes,
} from 'class-validator';
import * as contracts from '../index.js';

type Dto = abstract new (...args: never[]) => object;
type Rule = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/** Rules that pass only strings of a bounded length, with the validators of our own libs that do. */
const BOUNDING_RULES = new Set([MAX_LENGTH, IS_UUID, IS_IN, IS_ENUM, 'isNonzeroEvmAddress', 'isUsdAmount']);
/** Rules that take strings: a property with one holds a string, whatever its declared type. */
const STRING_RULES = new Set([IS_STRING, MATCHES, MAX_LENGTH, MIN_LENGTH, IS_LENGTH, IS_ISO8601, IS_UUID, IS_URL]);
const LIST_RULES = new Set([IS_ARRAY, ARRAY_MIN_SIZE, ARRAY_MAX_SIZE]);

/** A pattern anchored at both ends without unbounded repetition only matches strings of bounded length. */
function isBoundedPattern(pattern: unknown): boolean {
  const source = (pattern instanceof RegExp ? pattern.source : String(pattern)).replace(/\\./g, '');
  return source.startsWith('^') && source.endsWith('$') && !/[*+]|\{\d+,\}/.test(source);
}

function bounds(rule: Rule): boolean {
  if (rule.name === IS_LENGTH) return rule.constraints[1] !== undefined;
  if (rule.name === MATCHES) return isBoundedPattern(rule.constraints[0]);
  return BOUNDING_RULES.has(rule.name ?? '');
}

const has = (rules: readonly Rule[], name: string) => rules.some((rule) => rule.name === name);

/** What the property lacks to stay within what storage holds; undefined when nothing. */
function missingBound(dto: Dto, property: string, rules: readonly Rule[]): string | undefined {
  const declared: unknown = Reflect.getMetadata('design:type', dto.prototype, property);
  if (declared === Array || rules.some((rule) => rule.each === true || LIST_RULES.has(rule.name ?? ''))) {
    if (!has(rules, ARRAY_MAX_SIZE)) return 'an array without ArrayMaxSize';
    const nested = rules.some((rule) => rule.type === ValidationTypes.NESTED_VALIDATION);
    return nested || rules.some((rule) => rule.each === true && bounds(rule)) ? undefined : 'an array whose items have no maximum length';
  }
  if (has(rules, IS_INT) && !has(rules, MAX)) return 'an integer without Max';
  const isString = declared === String || rules.some((rule) => STRING_RULES.has(rule.name ?? ''));
  return isString && !rules.some(bounds) ? 'a string without a maximum length' : undefined;
}

/** `<Dto>.<property>: <what it lacks>` for every property of `dto` that lacks a bound. */
function unbounded(name: string, dto: Dto): string[] {
  const byProperty = new Map<string, Rule[]>();
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    byProperty.set(rule.propertyName, [...(byProperty.get(rule.propertyName) ?? []), rule]);
  }
  return [...byProperty].flatMap(([property, rules]) => {
    const missing = missingBound(dto, property, rules);
    return missing ? [`${name}.${property}: ${missing}`] : [];
  });
}

/** Every class the contracts export with class-validator rules: the DTOs input is validated with. */
const inputDtos = Object.entries(contracts as Record<string, unknown>).filter(
  (entry): entry is [string, Dto] =>
    typeof entry[1] === 'function' && getMetadataStorage().getTargetValidationMetadatas(entry[1], '', true, false).length > 0,
);

describe('input DTO bounds', () => {
  it('finds the input DTOs among the exports', () => {
    expect(inputDtos.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'CreateWalletDto',
        'UpdateWalletDto',
        'AllocationInstructionDto',
        'ActivityQueryDto',
        'CreateApiKeyDto',
        'PutApprovalPolicyDto',
        'CreateWebhookDto',
      ]),
    );
  });

  it('bounds every string by a maximum length, every array by ArrayMaxSize and every integer by Max', () => {
    expect(inputDtos.flatMap(([name, dto]) => unbounded(name, dto))).toEqual([]);
  });

  it('finds what a DTO forgot', () => {
    class Forgetful {
      @IsString() name!: string;
      @Matches(/^a+$/) pattern!: string;
      @MaxLength(10) @Matches(/^a+$/) bounded!: string;
      @Length(1) short!: string;
      @IsArray() @IsString({ each: true }) tags!: string[];
      @IsInt() count!: number;
    }
    expect(unbounded('Forgetful', Forgetful)).toEqual([
      'Forgetful.name: a string without a maximum length',
      'Forgetful.pattern: a string without a maximum length',
      'Forgetful.short: a string without a maximum length',
      'Forgetful.tags: an array without ArrayMaxSize',
      'Forgetful.count: an integer without Max',
    ]);
  });
});
