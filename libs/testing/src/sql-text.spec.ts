import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { rawSqlFunctions, unrecordedRawSqlFunctions } from './sql-text.js';

/** A service of one repository module and one queries file, in a temporary directory. */
const root = mkdtempSync(join(tmpdir(), 'sql-text-spec-'));
mkdirSync(join(root, 'src/app/repositories'), { recursive: true });
mkdirSync(join(root, 'src/queries'));
writeFileSync(
  join(root, 'src/app/repositories/things.repository.ts'),
  `
export async function lockThing(tx: Db, id: string): Promise<void> {
  await tx.$executeRawUnsafe('SELECT 1 FROM things WHERE id = $1 FOR UPDATE', id);
}

/** Runs raw SQL through lockThing. */
export async function lockAndRead(tx: Db, id: string) {
  await lockThing(tx, id);
  return tx.thing.findUnique({ where: { id } });
}

export const countThings = async (tx: Db) => tx.$queryRaw\`SELECT count(*) FROM things\`;

/** Prisma's model API only: not a raw statement. */
export function findThing(tx: Db, id: string) {
  return tx.thing.findUnique({ where: { id } });
}

function hidden(tx: Db) {
  return tx.$queryRawUnsafe('SELECT 2');
}

export function throughHidden(tx: Db) {
  return hidden(tx);
}

export class ThingsRepository {
  async claim(): Promise<void> {
    await this.prisma.$executeRawUnsafe('UPDATE things SET claimed = true');
  }
  async claimTwice(): Promise<void> {
    await this.claim();
    await this.claim();
  }
  list() {
    return this.prisma.thing.findMany();
  }
  private async sweep(): Promise<void> {
    await this.prisma.$executeRawUnsafe('DELETE FROM things');
  }
}
`,
);
writeFileSync(join(root, 'src/app/plain.ts'), 'export function plain() {\n  return 1;\n}\n');
writeFileSync(
  join(root, 'src/queries/things.repository.sql'),
  ['-- header', '', '-- lockThing(tx, id)', 'SELECT 1;', '', '-- claim()', 'UPDATE things;', ''].join('\n'),
);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('rawSqlFunctions', () => {
  it('finds the exported functions and public methods that run raw SQL, directly or through one of their module', () => {
    expect(rawSqlFunctions(join(root, 'src')).map(({ file, name }) => `${file}: ${name}`)).toEqual([
      'app/repositories/things.repository.ts: lockThing',
      'app/repositories/things.repository.ts: lockAndRead',
      'app/repositories/things.repository.ts: countThings',
      'app/repositories/things.repository.ts: throughHidden',
      'app/repositories/things.repository.ts: ThingsRepository.claim',
      'app/repositories/things.repository.ts: ThingsRepository.claimTwice',
    ]);
  });
});

describe('unrecordedRawSqlFunctions', () => {
  const elsewhere = {
    'app/repositories/things.repository.ts: countThings': 'recorded by another entry',
    'app/repositories/things.repository.ts: findThing': 'listed, but it runs no raw SQL',
  };

  it('names each one no entry header names, unless listed as recorded elsewhere; and a listed name that runs no raw SQL', () => {
    const problems = unrecordedRawSqlFunctions(root, elsewhere).map((problem) => problem.replace(/ (runs raw SQL|is listed).*/, ''));
    expect(problems).toEqual([
      'app/repositories/things.repository.ts: lockAndRead',
      'app/repositories/things.repository.ts: throughHidden',
      'app/repositories/things.repository.ts: ThingsRepository.claimTwice',
      'app/repositories/things.repository.ts: findThing',
    ]);
  });

  it('takes a method named bare only in its own module’s file, or as Class.method in any', () => {
    writeFileSync(join(root, 'src/queries/other.sql'), '-- claimTwice()\nUPDATE things;\n-- throughHidden(tx)\nSELECT 2;\n');
    const problems = unrecordedRawSqlFunctions(root, elsewhere);
    expect(problems.some((problem) => problem.includes('ThingsRepository.claimTwice'))).toBe(true);
    expect(problems.some((problem) => problem.includes(': throughHidden'))).toBe(false);
    writeFileSync(join(root, 'src/queries/other.sql'), '-- ThingsRepository.claimTwice()\nUPDATE things;\n');
    expect(unrecordedRawSqlFunctions(root, elsewhere).some((problem) => problem.includes('ThingsRepository.claimTwice'))).toBe(false);
  });
});
