import { Controller, Inject } from '@nestjs/common';
import { SUBJECTS, type WalletYieldSourceListDto, type WireRequestOf } from '@service/contracts';
import { decodeCursor, DEFAULT_LIMIT, encodeCursor, toPage } from '@service/pagination';
import { Handles } from '@service/service-runtime';
import { Catalogue } from '../domain/catalogue/catalogue.js';
import { liveFiguresOf } from '../domain/catalogue/market-figures.js';
import { marketFiguresOf } from '../repositories/market-figures.repository.js';
import { WalletSql } from '../repositories/wallet-sql.js';

const LIST = 'wallet-yield-sources';

@Controller()
export class YieldSourcesMsController {
  constructor(
    @Inject(Catalogue) private readonly catalogue: Catalogue,
    @Inject(WalletSql) private readonly sql: WalletSql,
  ) {}

  /**
   * The catalogue in id order: a keyset on the id, since sources have no creation time. Its live
   * figures (`currentApy`, `tvlUsd`) are the latest observations the organization sees
   * (`market_figures`, fed by the `wallet-market-data` consumer), read in one query per request.
   */
  @Handles(SUBJECTS.wallet.yieldSourcesList)
  async list({
    ctx,
    cursor,
    limit = DEFAULT_LIMIT,
  }: WireRequestOf<typeof SUBJECTS.wallet.yieldSourcesList>): Promise<WalletYieldSourceListDto> {
    const after = cursor ? String(decodeCursor(cursor, LIST, {}, 1)[0]) : undefined;
    const rows = this.catalogue.entries.filter((entry) => after === undefined || entry.id > after).slice(0, limit + 1);
    const now = new Date();
    const live = liveFiguresOf(await marketFiguresOf(this.sql, ctx.orgId), ctx.orgId, now);
    return toPage(
      rows,
      limit,
      (entry) => encodeCursor(LIST, {}, [entry.id]),
      (entry) => this.catalogue.view(entry, now, live.get(entry.id)),
    );
  }
}
