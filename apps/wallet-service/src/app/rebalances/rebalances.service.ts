import { Injectable } from '@nestjs/common';
import type { AllocatePreviewResponseDto, AllocationResponseDto, RequestContext, RequestOf, SUBJECTS } from '@service/contracts';
import { fingerprint } from '../domain/idempotency.js';
import { checkAllocatable, instructionsView, parseInstructions } from '../domain/instructions.js';
import { Ledger } from '../domain/ledger.js';
import { checkNotBlocked } from '../domain/rebalance-plans.js';
import { allocationResponse } from '../domain/rebalance-view.js';
import { positionsView, valuePositions } from '../domain/wallet-view.js';
import { WalletFeature } from '../environment/wallet-feature.js';
import { addResponse, lockWalletAndClaimThenAlso } from '../repositories/idempotency-keys.repository.js';
import { ledgerQuery } from '../repositories/positions.repository.js';
import { blockedSources, blockedSourcesQuery } from '../repositories/risk-blocks.repository.js';
import { findWallet } from '../repositories/wallets.repository.js';
import { Writes } from '../repositories/writes.js';
import { addNewRebalance } from './rebalance-changes.js';

@Injectable()
export class RebalancesService extends WalletFeature {
  /** Explicit allocations on a wallet without autoRebalance (owners and admins: `SUBJECT_ROLES`), idempotent on requestId. */
  async allocate(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.allocate>): Promise<AllocationResponseDto> {
    const moves = parseInstructions(input.allocations, this.env);
    const now = this.env.now();
    const key = { orgId: ctx.orgId, operation: 'wallet.allocate' as const, requestId: input.requestId };
    // PgPoolSql, two round trips: BEGIN, the key claimed, the wallet locked, its positions and its
    // risk blocks read; then every write and COMMIT.
    const result = await this.sql.$transaction(async (tx) => {
      const {
        wallet,
        claim,
        then: ledger,
        also: blocked,
      } = await lockWalletAndClaimThenAlso(
        tx,
        input.walletId,
        {
          ...key,
          fingerprint: fingerprint({ walletId: input.walletId.toLowerCase(), allocations: instructionsView(moves) }),
          resourceId: input.walletId,
        },
        ledgerQuery(input.walletId.toLowerCase(), this.env, now),
        blockedSourcesQuery(input.walletId.toLowerCase()),
      );
      if (!claim.fresh) return { response: claim.response as AllocationResponseDto, created: false };
      checkAllocatable(wallet, ledger, moves);
      checkNotBlocked(wallet.id, moves, blocked);
      // The workflow, the held positions, its event (`rebalance.status_changed`, created) and the remembered answer: one statement.
      const writes = new Writes();
      const response = allocationResponse(addNewRebalance(writes, { wallet, ledger, moves, requestId: input.requestId, now }));
      addResponse(writes, key, response);
      await writes.run(tx);
      return { response, created: true };
    });
    if (result.created) {
      this.publishAndRun();
    }
    return result.response;
  }

  /** The same checks as allocate, and the positions before and after; nothing changes. */
  async preview(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.allocatePreview>): Promise<AllocatePreviewResponseDto> {
    const moves = parseInstructions(input.allocations, this.env);
    const wallet = await findWallet(this.sql, ctx.orgId, input.walletId);
    const now = this.env.now();
    const { catalogue, timeScale } = this.env;
    const before = valuePositions(wallet.positions, catalogue, timeScale, now);
    const ledger = Ledger.fromRows(
      wallet.id,
      before.map(({ row, value, earned }) => ({ ...row, amount: value, earned, accruedAt: now })),
    );
    checkAllocatable(wallet, ledger, moves);
    checkNotBlocked(wallet.id, moves, await blockedSources(this.sql, wallet.id));
    ledger.applyAll(moves);
    return {
      allocations: instructionsView(moves),
      before: positionsView(before, catalogue),
      after: positionsView(valuePositions(ledger.positions(), catalogue, timeScale, now), catalogue),
    };
  }
}
