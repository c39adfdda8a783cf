import { describe, expect, it } from '@jest/globals';
import { initialActionStatus, decide } from './actions.js';
import { resolveSpelling, spellingOfStored, storedAction } from './spelling.js';

const refused = expect.objectContaining({ code: 'validation_error' }) as unknown as Error;

describe('the two spellings of what happens on breach', () => {
  it('maps the guide spelling onto the reference one', () => {
    expect(resolveSpelling({ outcome: 'alert' })).toEqual({ action: 'alert_only', outcome: 'alert', approvalMode: null });
    expect(resolveSpelling({ outcome: 'prevent_additional_allocation', approvalMode: 'automatic' })?.action).toBe('block_rebalance_buy');
    expect(resolveSpelling({ outcome: 'exit_position', approvalMode: 'automatic' })?.action).toBe('auto_rebalance_out');
    expect(resolveSpelling({ outcome: 'exit_position', approvalMode: 'approval_required' })?.action).toBe('request_rebalance_out');
  });

  it('maps the reference spelling onto the guide one', () => {
    expect(resolveSpelling({ action: 'alert_only' })).toEqual({ action: 'alert_only', outcome: 'alert', approvalMode: null });
    expect(resolveSpelling({ action: 'block_rebalance_buy' })).toEqual({
      action: 'block_rebalance_buy',
      outcome: 'prevent_additional_allocation',
      approvalMode: 'automatic',
    });
    expect(resolveSpelling({ action: 'request_rebalance_out' })).toMatchObject({
      outcome: 'exit_position',
      approvalMode: 'approval_required',
    });
    expect(resolveSpelling({ action: 'auto_rebalance_out' })).toMatchObject({ outcome: 'exit_position', approvalMode: 'automatic' });
  });

  it('takes both when they agree', () => {
    expect(resolveSpelling({ action: 'auto_rebalance_out', outcome: 'exit_position', approvalMode: 'automatic' })?.action).toBe(
      'auto_rebalance_out',
    );
    expect(
      resolveSpelling({ action: 'block_rebalance_buy', outcome: 'prevent_additional_allocation', approvalMode: 'approval_required' }),
    ).toEqual({
      action: 'block_rebalance_buy',
      outcome: 'prevent_additional_allocation',
      approvalMode: 'approval_required',
    });
    expect(resolveSpelling({ action: 'alert_only', outcome: 'alert' })?.action).toBe('alert_only');
  });

  it('refuses spellings that disagree', () => {
    expect(() => resolveSpelling({ action: 'alert_only', outcome: 'exit_position', approvalMode: 'automatic' })).toThrow(refused);
    expect(() =>
      resolveSpelling({ action: 'auto_rebalance_out', outcome: 'prevent_additional_allocation', approvalMode: 'automatic' }),
    ).toThrow(refused);
    expect(() => resolveSpelling({ action: 'request_rebalance_out', approvalMode: 'automatic' })).toThrow(refused);
    expect(() => resolveSpelling({ action: 'alert_only', approvalMode: 'automatic' })).toThrow(refused);
  });

  it('requires approvalMode for non-alert outcomes and refuses it for alert', () => {
    expect(() => resolveSpelling({ outcome: 'exit_position' })).toThrow(refused);
    expect(() => resolveSpelling({ outcome: 'prevent_additional_allocation' })).toThrow(refused);
    expect(() => resolveSpelling({ outcome: 'alert', approvalMode: 'automatic' })).toThrow(refused);
    expect(() => resolveSpelling({ approvalMode: 'automatic' })).toThrow(refused);
    expect(resolveSpelling({})).toBeUndefined();
  });

  it('stores an approval-required block apart from an automatic one, and reads both back', () => {
    const approval = resolveSpelling({ outcome: 'prevent_additional_allocation', approvalMode: 'approval_required' })!;
    expect(storedAction(approval)).toBe('block_rebalance_buy:approval_required');
    expect(spellingOfStored(storedAction(approval))).toEqual(approval);
    expect(spellingOfStored('auto_rebalance_out').approvalMode).toBe('automatic');
  });
});

describe('actions', () => {
  it('start in the status their outcome and approval mode call for', () => {
    expect(initialActionStatus(resolveSpelling({ action: 'alert_only' })!)).toBeUndefined();
    expect(initialActionStatus(resolveSpelling({ action: 'block_rebalance_buy' })!)).toBe('executed');
    expect(initialActionStatus(resolveSpelling({ outcome: 'prevent_additional_allocation', approvalMode: 'approval_required' })!)).toBe(
      'pending_approval',
    );
    expect(initialActionStatus(resolveSpelling({ action: 'auto_rebalance_out' })!)).toBe('pending_auto_execution');
    expect(initialActionStatus(resolveSpelling({ action: 'request_rebalance_out' })!)).toBe('pending_approval');
  });

  it('are approved or rejected only while pending approval', () => {
    const exit = resolveSpelling({ action: 'request_rebalance_out' })!;
    const block = resolveSpelling({ outcome: 'prevent_additional_allocation', approvalMode: 'approval_required' })!;
    expect(decide(exit, 'pending_approval', 'approved')).toBe('executing');
    expect(decide(block, 'pending_approval', 'approved')).toBe('executed');
    expect(decide(exit, 'pending_approval', 'rejected')).toBe('rejected');
    expect(() => decide(exit, 'rejected', 'approved')).toThrow(
      expect.objectContaining({ code: 'risk_action_not_pending' }) as unknown as Error,
    );
  });
});
