import type { RiskComparator, RiskMetric, RiskRuleKind } from '@service/contracts';
import { ServiceError } from '@service/errors';

/** What a rule checks, as stored. */
export interface RuleCondition {
  readonly metric: RiskMetric;
  readonly ruleKind: RiskRuleKind;
  readonly comparator: RiskComparator;
  readonly thresholdValue: number;
  readonly windowSeconds: number | null;
}

/** The figures of one observation; null where it has none. */
export type MetricFigures = { readonly [M in RiskMetric]: number | null };

/** What an evaluation found: whether the rule breaches and the figures behind it. */
export interface Evaluation {
  readonly breaching: boolean;
  readonly observedValue: number;
  readonly baselineValue: number | null;
  readonly observedChangeBps: number | null;
}

const invalid = (message: string) => new ServiceError('validation_error', message);

/**
 * The rule's condition as the real API constrains it: an absolute rule has a threshold >= 0 and
 * no window; a velocity rule (`relative_change_bps`) a signed threshold in bps and a window.
 */
export function checkCondition(condition: RuleCondition): void {
  if (condition.ruleKind === 'absolute') {
    if (condition.thresholdValue < 0) throw invalid('thresholdValue must be non-negative for an absolute rule.');
    if (condition.windowSeconds !== null) throw invalid('windowSeconds is refused for an absolute rule.');
  } else if (condition.windowSeconds === null) {
    throw invalid('windowSeconds is required for a relative_change_bps rule.');
  }
}

/** `value <comparator> threshold`. */
export function compare(comparator: RiskComparator, value: number, threshold: number): boolean {
  switch (comparator) {
    case 'lt':
      return value < threshold;
    case 'lte':
      return value <= threshold;
    case 'gt':
      return value > threshold;
    case 'gte':
      return value >= threshold;
  }
}

/** The change from `baseline` to `value` in basis points, rounded to 1/100 bps; null from a zero baseline. */
export function changeBps(baseline: number, value: number): number | null {
  if (baseline === 0) return null;
  return Math.round(((value - baseline) / baseline) * 1_000_000) / 100;
}

/**
 * The rule on an observation: undefined when it cannot say (the observation has no figure for
 * the metric, or a velocity rule has no baseline, one taken at least `windowSeconds` earlier,
 * or a zero one). Neither opens nor resolves an alert.
 */
export function evaluate(condition: RuleCondition, figures: MetricFigures, baseline: MetricFigures | undefined): Evaluation | undefined {
  const observedValue = figures[condition.metric];
  if (observedValue === null) return undefined;
  if (condition.ruleKind === 'absolute') {
    return {
      breaching: compare(condition.comparator, observedValue, condition.thresholdValue),
      observedValue,
      baselineValue: null,
      observedChangeBps: null,
    };
  }
  const baselineValue = baseline?.[condition.metric] ?? null;
  if (baselineValue === null) return undefined;
  const observedChangeBps = changeBps(baselineValue, observedValue);
  if (observedChangeBps === null) return undefined;
  return {
    breaching: compare(condition.comparator, observedChangeBps, condition.thresholdValue),
    observedValue,
    baselineValue,
    observedChangeBps,
  };
}

const COMPARATOR_WORDS: Record<RiskComparator, string> = { lt: 'below', lte: 'at or below', gt: 'above', gte: 'at or above' };

/** The alert's `explanation`: what was observed against what, in words and figures. */
export function explanationOf(condition: RuleCondition, evaluation: Evaluation, yieldSourceId: string): Record<string, unknown> {
  const { metric, comparator, thresholdValue, windowSeconds } = condition;
  const summary =
    condition.ruleKind === 'absolute'
      ? `${metric} of ${yieldSourceId} is ${evaluation.observedValue}, ${COMPARATOR_WORDS[comparator]} the threshold ${thresholdValue}.`
      : `${metric} of ${yieldSourceId} changed ${evaluation.observedChangeBps} bps over ${windowSeconds} s (from ${evaluation.baselineValue} to ${evaluation.observedValue}), ${COMPARATOR_WORDS[comparator]} the threshold ${thresholdValue} bps.`;
  return {
    summary,
    metric,
    ruleKind: condition.ruleKind,
    comparator,
    thresholdValue,
    observedValue: evaluation.observedValue,
    ...(condition.ruleKind === 'relative_change_bps'
      ? { baselineValue: evaluation.baselineValue, observedChangeBps: evaluation.observedChangeBps, windowSeconds }
      : {}),
  };
}
