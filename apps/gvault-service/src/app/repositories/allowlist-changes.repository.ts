import { Injectable } from '@nestjs/common';
import { enqueueEvent, type NewEvent } from '@service/events';
import { PrismaService } from '../prisma.service.js';

/** The event a stored allowlist change is written with, as the follower builds it. */
export type AllowlistUpdatedEvent = NewEvent<'gvault.allowlist.updated'>;

/** One allowlist change read from the chain, keyed by its log (txHash, logIndex). */
export interface AllowlistChangeRow {
  readonly txHash: `0x${string}`;
  readonly logIndex: number;
  readonly chain: string;
  readonly contractAddress: `0x${string}`;
  readonly address: `0x${string}`;
  readonly allowed: boolean;
  readonly blockNumber: bigint;
}

/**
 * The followed allowlist's stored side: the position (last applied block) per followed contract
 * and the changes applied so far, each written once with the event its caller built for it.
 */
@Injectable()
export class AllowlistChangesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The last block applied for the cursor, or null before the first start. */
  async lastBlock(cursorId: string): Promise<bigint | null> {
    const cursor = await this.prisma.chainCursor.findUnique({ where: { id: cursorId } });
    return cursor ? cursor.lastBlock : null;
  }

  /** Stores the first position of a cursor. */
  async startAt(cursorId: string, lastBlock: bigint): Promise<void> {
    await this.prisma.chainCursor.create({ data: { id: cursorId, lastBlock } });
  }

  /**
   * In one transaction: each change not stored yet, with its event in the outbox (a change
   * already stored writes nothing), and the cursor moved to `lastBlock`. Resolves to the
   * addresses of the new changes.
   */
  applyRange(
    cursorId: string,
    changes: readonly { row: AllowlistChangeRow; event: AllowlistUpdatedEvent }[],
    lastBlock: bigint,
  ): Promise<`0x${string}`[]> {
    return this.prisma.$transaction(async (tx) => {
      const fresh: `0x${string}`[] = [];
      for (const { row, event } of changes) {
        const { count } = await tx.allowlistChange.createMany({ data: row, skipDuplicates: true });
        if (count === 0) continue;
        await enqueueEvent(tx, event);
        fresh.push(row.address);
      }
      // A replica that got further may be moved back here; it only re-reads logs the key ignores.
      await tx.chainCursor.upsert({
        where: { id: cursorId },
        create: { id: cursorId, lastBlock },
        update: { lastBlock },
      });
      return fresh;
    });
  }
}
