import { Controller, Inject } from '@nestjs/common';
import { SUBJECTS, type WalletYieldSourceListDto, type WireRequestOf } from '@service/contracts';
import { decodeCursor, DEFAULT_LIMIT, encodeCursor, toPage } from '@service/pagination';
import { Handles } from '@service/service-runtime';
import { Catalogue } from '../domain/catalogue/catalogue.js';

const LIST = 'wallet-yield-sources';

@Controller()
export class YieldSourcesMsController {
  constructor(@Inject(Catalogue) private readonly catalogue: Catalogue) {}

  /** The catalogue in id order: a keyset on the id, since sources have no creation time. */
  @Handles(SUBJECTS.wallet.yieldSourcesList)
  list({ cursor, limit = DEFAULT_LIMIT }: WireRequestOf<typeof SUBJECTS.wallet.yieldSourcesList>): WalletYieldSourceListDto {
    const after = cursor ? String(decodeCursor(cursor, LIST, {}, 1)[0]) : undefined;
    const rows = this.catalogue.entries.filter((entry) => after === undefined || entry.id > after).slice(0, limit + 1);
    const now = new Date();
    return toPage(
      rows,
      limit,
      (entry) => encodeCursor(LIST, {}, [entry.id]),
      (entry) => this.catalogue.view(entry, now),
    );
  }
}
