import { describe, expect, it } from '@jest/globals';
import type { RiskComparator } from '@service/contracts';
import { changeBps, checkCondition, compare, evaluate, explanationOf, type MetricFigures, type RuleCondition } from './rules.js';

const figures = (tvl: number | null, apy: number | null = 500, liquidity: number | null = 1_000): MetricFigures => ({
  apy_bps: apy,
  tvl_usd: tvl,
  available_withdrawal_liquidity_usd: liquidity,
});
const absolute = (comparator: RiskComparator, thresholdValue: number): RuleCondition => ({
  metric: 'tvl_usd',
  ruleKind: 'absolute',
  comparator,
  thresholdValue,
  windowSeconds: null,
});
const velocity = (comparator: RiskComparator, thresholdValue: number): RuleCondition => ({
  metric: 'tvl_usd',
  ruleKind: 'relative_change_bps',
  comparator,
  thresholdValue,
  windowSeconds: 3600,
});

describe('comparators at, just above and just below the threshold', () => {
  // [comparator, below, at, above]
  const table: [RiskComparator, boolean, boolean, boolean][] = [
    ['lt', true, false, false],
    ['lte', true, true, false],
    ['gt', false, false, true],
    ['gte', false, true, true],
  ];

  it.each(table)('%s: an absolute rule breaches below=%s at=%s above=%s', (comparator, below, at, above) => {
    const rule = absolute(comparator, 100_000_000);
    expect(evaluate(rule, figures(99_999_999.99), undefined)?.breaching).toBe(below);
    expect(evaluate(rule, figures(100_000_000), undefined)?.breaching).toBe(at);
    expect(evaluate(rule, figures(100_000_000.01), undefined)?.breaching).toBe(above);
  });

  it.each(table)('%s: a velocity rule breaches below=%s at=%s above=%s (in bps of change)', (comparator, below, at, above) => {
    const rule = velocity(comparator, -1500);
    const baseline = figures(1_000_000);
    // -1500 bps is 850,000; one cent either side is 1/10,000 bps, kept at 1/100 bps precision by 100 dollars.
    expect(evaluate(rule, figures(849_900), baseline)?.breaching).toBe(below);
    expect(evaluate(rule, figures(850_000), baseline)?.breaching).toBe(at);
    expect(evaluate(rule, figures(850_100), baseline)?.breaching).toBe(above);
  });

  it('compares plainly', () => {
    expect(compare('lt', 1, 2)).toBe(true);
    expect(compare('gte', 2, 2)).toBe(true);
  });
});

describe('velocity rules', () => {
  it('report their baseline and the observed change', () => {
    expect(evaluate(velocity('lte', -1500), figures(800_000), figures(1_000_000))).toEqual({
      breaching: true,
      observedValue: 800_000,
      baselineValue: 1_000_000,
      observedChangeBps: -2000,
    });
    expect(evaluate(velocity('gte', 100), figures(1_010_000), figures(1_000_000))?.observedChangeBps).toBe(100);
  });

  it('say nothing without a baseline, from a zero one, or without the metric', () => {
    expect(evaluate(velocity('lte', -1500), figures(800_000), undefined)).toBeUndefined();
    expect(evaluate(velocity('lte', -1500), figures(800_000), figures(0))).toBeUndefined();
    expect(evaluate(velocity('lte', -1500), figures(800_000), figures(null))).toBeUndefined();
    expect(evaluate(absolute('lt', 1), figures(null), undefined)).toBeUndefined();
    expect(changeBps(0, 1)).toBeNull();
  });

  it('explain themselves', () => {
    const rule = velocity('lte', -1500);
    const result = evaluate(rule, figures(800_000), figures(1_000_000))!;
    expect(explanationOf(rule, result, 'service-ustb-vault')).toMatchObject({
      summary: expect.stringContaining('changed -2000 bps over 3600 s') as unknown,
      observedChangeBps: -2000,
      baselineValue: 1_000_000,
    });
    expect(
      explanationOf(absolute('lt', 5), { breaching: true, observedValue: 4, baselineValue: null, observedChangeBps: null }, 's'),
    ).not.toHaveProperty('baselineValue');
  });
});

describe('rule conditions', () => {
  it('refuse a negative absolute threshold, a window on an absolute rule and a velocity rule without one', () => {
    expect(() => checkCondition(absolute('lt', -1))).toThrow(expect.objectContaining({ code: 'validation_error' }));
    expect(() => checkCondition({ ...absolute('lt', 1), windowSeconds: 60 })).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    );
    expect(() => checkCondition({ ...velocity('lt', -1), windowSeconds: null })).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    );
    expect(() => checkCondition(absolute('lt', 0))).not.toThrow();
    expect(() => checkCondition(velocity('lt', -1500))).not.toThrow();
  });
});
