import { walletNotFound } from '../domain/errors.js';
import type { WalletDb } from './wallet-sql.js';
import { readWallets, type WalletReadRow, type WalletWithPositions, withPositions } from './wallets.repository.js';

/** Most wallets one statement reads; a larger turn's reads go in several. */
const MOST_PER_STATEMENT = 256;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Waiting {
  readonly orgId: string;
  readonly walletId: string;
  resolve(wallet: WalletWithPositions): void;
  reject(error: unknown): void;
}

/**
 * Single-wallet reads (GET wallet, its yield) of one event-loop turn, read in one statement.
 * Under load a turn carries many: the service reads several requests from one NATS socket read,
 * and each read of its own would cost a statement's protocol round (bind, execute, sync) in
 * PostgreSQL and in `pg`, several times what reading the row costs (measurements:
 * tools/bench/README.md). The reads are collected until the turn's I/O callbacks and
 * their promise chains have run (`setImmediate`), then read with `id = ANY(...)`; each read
 * starts after its request arrived, so it sees every write committed before it, as a read of its
 * own would. A wallet of another organization is `wallet_not_found`, as before.
 */
export class WalletReads {
  private waiting: Waiting[] = [];

  constructor(private readonly db: WalletDb) {}

  /** The organization's wallet with its positions; `wallet_not_found` otherwise. */
  find(orgId: string, walletId: string): Promise<WalletWithPositions> {
    // Not an id PostgreSQL could hold: it would fail the whole statement's uuid[] cast.
    if (!UUID.test(walletId)) return Promise.reject(walletNotFound(walletId));
    return new Promise((resolve, reject) => {
      if (this.waiting.push({ orgId, walletId, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (let start = 0; start < waiting.length; start += MOST_PER_STATEMENT) {
      void this.read(waiting.slice(start, start + MOST_PER_STATEMENT));
    }
  }

  private async read(waiting: Waiting[]): Promise<void> {
    let found: Map<string, WalletReadRow>;
    try {
      const rows = await readWallets(this.db, [...new Set(waiting.map((each) => each.walletId.toLowerCase()))]);
      found = new Map(rows.map((row) => [row.id, row]));
    } catch (error) {
      for (const each of waiting) each.reject(error);
      return;
    }
    for (const each of waiting) {
      const row = found.get(each.walletId.toLowerCase());
      if (row === undefined || row.orgId !== each.orgId) {
        each.reject(walletNotFound(each.walletId));
        continue;
      }
      // A record of its own for each read: two requests for one wallet share no object. A row
      // that cannot be read fails its own request, not the others (nor the process).
      try {
        each.resolve(withPositions(row));
      } catch (error) {
        each.reject(error);
      }
    }
  }
}
