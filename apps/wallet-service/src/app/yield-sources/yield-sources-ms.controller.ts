import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type RpcRequest, SUBJECTS, type WalletYieldSourceListDto } from '@service/contracts';
import { decodeCursor, encodeCursor, parseLimit, toPage } from '@service/pagination';
import { Catalogue } from './catalogue.js';

const LIST = 'wallet-yield-sources';

@Controller()
export class YieldSourcesMsController {
  constructor(@Inject(Catalogue) private readonly catalogue: Catalogue) {}

  @MessagePattern(SUBJECTS.wallet.yieldSourcesList)
  list(@Payload() request: RpcRequest<{ cursor?: string; limit?: string }>): WalletYieldSourceListDto {
    const limit = parseLimit(request.limit);
    const after = request.cursor ? String(decodeCursor(request.cursor, LIST, {}, 1)[0]) : undefined;
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
