/**
 * FIFO lots of one yield-source position. A position's money is counted in units, as shares of a
 * fund: a buy mints units at the position's value per unit (one unit per micro-dollar into an empty
 * position) and opens a lot `{units, cost}`; accrued yield raises the value per unit and leaves the
 * units alone; a redemption burns the units its proceeds are worth, taken from the oldest lots
 * first, and consumes their cost in proportion (all of a lot's cost when all its units go).
 * Realized performance is the proceeds minus the consumed cost; unrealized is the position's value
 * minus the open lots' cost. Every figure is an integer (micro-dollars, units), rounded down, so
 * the same history always gives the same lots.
 */
export interface Lot {
  units: bigint;
  cost: bigint;
  /** When the lot was bought, epoch milliseconds. */
  openedAtMs: number;
}

/** As the `positions.lots` column stores them: `[[units, cost, openedAtMs], ...]`, oldest first. */
export type StoredLots = [units: string, cost: string, openedAtMs: number][];

export function lotsOf(stored: unknown): Lot[] {
  if (!Array.isArray(stored)) return [];
  return (stored as StoredLots).map(([units, cost, openedAtMs]) => ({ units: BigInt(units), cost: BigInt(cost), openedAtMs }));
}

export function storedLots(lots: readonly Lot[]): StoredLots {
  return lots.map((lot) => [lot.units.toString(), lot.cost.toString(), lot.openedAtMs]);
}

export function openUnits(lots: readonly Lot[]): bigint {
  return lots.reduce((sum, lot) => sum + lot.units, 0n);
}

export function openCost(lots: readonly Lot[]): bigint {
  return lots.reduce((sum, lot) => sum + lot.cost, 0n);
}

/**
 * A buy of `amount` into a position worth `valueBefore`: a new lot at cost `amount`, its units at
 * the position's value per unit. The lots after it.
 */
export function buyLot(lots: readonly Lot[], valueBefore: bigint, amount: bigint, at: Date): Lot[] {
  if (amount <= 0n) return [...lots];
  const units = openUnits(lots);
  const minted = units > 0n && valueBefore > 0n ? (amount * units) / valueBefore : amount;
  return [...lots, { units: minted, cost: amount, openedAtMs: at.getTime() }];
}

/**
 * A redemption of `proceeds` out of a position worth `valueBefore`: the units they are worth leave
 * the oldest lots first (every unit when the position empties). The lots after it and the cost
 * the redemption consumed.
 */
export function redeemLots(lots: readonly Lot[], valueBefore: bigint, proceeds: bigint): { lots: Lot[]; consumedCost: bigint } {
  const units = openUnits(lots);
  if (proceeds <= 0n || units === 0n) return { lots: [...lots], consumedCost: 0n };
  let burn = proceeds >= valueBefore ? units : (proceeds * units) / (valueBefore > 0n ? valueBefore : 1n);
  let consumedCost = 0n;
  const left: Lot[] = [];
  for (const lot of lots) {
    if (burn === 0n) {
      left.push({ ...lot });
      continue;
    }
    const take = burn < lot.units ? burn : lot.units;
    const cost = take === lot.units ? lot.cost : (lot.cost * take) / lot.units;
    burn -= take;
    consumedCost += cost;
    if (take < lot.units) left.push({ units: lot.units - take, cost: lot.cost - cost, openedAtMs: lot.openedAtMs });
  }
  return { lots: left, consumedCost };
}
