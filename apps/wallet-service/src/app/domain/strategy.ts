import {
  ALLOCATION_GROUPS,
  type AllocationGroup,
  CASH_PSEUDO_SOURCE,
  type StrategyEntryDto,
  type StrategyTargetDto,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { Catalogue } from './catalogue/catalogue.js';

/** A validated strategy as stored: per group, targets in basis points summing to 10000. */
export type Strategy = Partial<Record<AllocationGroup, { yieldSourceId: string; bps: number }[]>>;

const FULL_BPS = 10_000;

const weightError = (message: string) => new ServiceError('invalid_position_weight', message);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One `{yieldSourceId, pct}` or `{yieldSourceId, targetWeightBps}` entry, as basis points. */
function parseEntry(group: string, entry: unknown): { yieldSourceId: string; bps: number } {
  if (!isRecord(entry) || typeof entry['yieldSourceId'] !== 'string' || entry['yieldSourceId'] === '') {
    throw new ServiceError('validation_error', `Each entry of allocations.${group} needs a yieldSourceId string.`);
  }
  const hasPct = entry['pct'] !== undefined;
  const hasBps = entry['targetWeightBps'] !== undefined;
  if (hasPct === hasBps) {
    throw new ServiceError('validation_error', `Give either pct or targetWeightBps for ${entry['yieldSourceId']} in allocations.${group}.`);
  }
  const weight = hasPct ? entry['pct'] : entry['targetWeightBps'];
  const max = hasPct ? 100 : FULL_BPS;
  // pct in steps of 0.1 is a whole multiple of 10 basis points, stored exactly.
  const bps = typeof weight === 'number' ? (hasPct ? Math.round(weight * 100) : weight) : Number.NaN;
  const exact = hasPct ? Math.abs((weight as number) * 100 - bps) < 1e-6 && bps % 10 === 0 : Number.isInteger(weight);
  if (typeof weight !== 'number' || !exact || weight < 0 || weight > max) {
    throw weightError(
      `${hasPct ? 'pct' : 'targetWeightBps'} of ${entry['yieldSourceId']} must be ${hasPct ? 'a number in steps of 0.1' : 'an integer'} from 0 to ${max}.`,
    );
  }
  return { yieldSourceId: entry['yieldSourceId'], bps };
}

function parseGroup(group: AllocationGroup, entries: unknown, catalogue: Catalogue): { yieldSourceId: string; bps: number }[] {
  if (!Array.isArray(entries) || entries.length === 0) {
    throw new ServiceError('validation_error', `allocations.${group} must be a non-empty array.`);
  }
  const parsed = entries.map((entry) => parseEntry(group, entry));
  const seen = new Set<string>();
  for (const { yieldSourceId } of parsed) {
    if (seen.has(yieldSourceId)) throw weightError(`${yieldSourceId} appears twice in allocations.${group}.`);
    seen.add(yieldSourceId);
    if (yieldSourceId === CASH_PSEUDO_SOURCE) continue;
    const source = catalogue.get(yieldSourceId);
    if (source.allocationGroup !== group) {
      throw weightError(`${yieldSourceId} belongs to allocation group ${source.allocationGroup}, not ${group}.`);
    }
  }
  const total = parsed.reduce((sum, entry) => sum + entry.bps, 0);
  if (total !== FULL_BPS) {
    throw weightError(`The weights of allocations.${group} total ${total / 100}%, not 100% (pct 100 or targetWeightBps 10000).`);
  }
  return parsed;
}

/**
 * Validates `strategy.allocations` (an object, as the gateway checked): known groups only, known sources of that group, integer
 * weights summing to 100% per group. Unknown source: `yield_source_not_found`; wrong group or a
 * wrong total: `invalid_position_weight`.
 */
export function parseStrategy(allocations: Readonly<Record<string, unknown>>, catalogue: Catalogue): Strategy {
  if (Object.keys(allocations).length === 0) {
    throw new ServiceError('validation_error', `allocations must map at least one group (${ALLOCATION_GROUPS.join(', ')}) to its targets.`);
  }
  const strategy: Strategy = {};
  for (const [group, entries] of Object.entries(allocations)) {
    if (!(ALLOCATION_GROUPS as readonly string[]).includes(group)) {
      throw new ServiceError('validation_error', `Unknown allocation group ${group}; groups are ${ALLOCATION_GROUPS.join(', ')}.`);
    }
    strategy[group as AllocationGroup] = parseGroup(group as AllocationGroup, entries, catalogue);
  }
  return strategy;
}

/** The request form: `{yieldSourceId, pct}` per group. */
export function strategyView(strategy: Strategy): Record<string, StrategyEntryDto[]> {
  return Object.fromEntries(
    Object.entries(strategy).map(([group, targets]) => [
      group,
      targets.map(({ yieldSourceId, bps }) => ({ yieldSourceId, pct: bps / 100 })),
    ]),
  );
}

/** The read-back form: basis points per source, with `cash` holding what the sources leave. */
export function strategyAllocationsView(strategy: Strategy): Record<string, StrategyTargetDto[]> {
  return Object.fromEntries(
    Object.entries(strategy).map(([group, targets]) => {
      const sources = targets.filter((target) => target.yieldSourceId !== CASH_PSEUDO_SOURCE);
      const invested = sources.reduce((sum, target) => sum + target.bps, 0);
      const entries = sources.map(({ yieldSourceId, bps }) => ({ yieldSourceId, targetWeightBps: bps }));
      return [group, [...entries, { yieldSourceId: CASH_PSEUDO_SOURCE, targetWeightBps: FULL_BPS - invested }]];
    }),
  );
}
