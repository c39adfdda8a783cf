import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** A statement as a repository function ran it: its text (`$1`, `$2`, ... placeholders) and values. */
export interface RecordedStatement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** What a recorder's transaction hands its work: the statements of an `SqlExecutor` (@service/sql). */
export interface RecordingExecutor {
  $queryRawUnsafe<T = unknown>(text: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(text: string, ...values: unknown[]): Promise<number>;
}

/**
 * An `SqlExecutor` (and `TransactionalSql`: `$transaction` runs the work on itself) that runs
 * nothing: it records each statement a repository function hands it (a transaction's `BEGIN` and
 * `COMMIT` too), and answers `$queryRawUnsafe` with what `answer` gives (no rows by default) and
 * `$executeRawUnsafe` with what `changed` gives (one row by default). Prisma's tagged templates
 * (`$queryRaw`, `$executeRaw`) are recorded with the `$n` placeholders Prisma sends. Not
 * pipelined, so `executeWrite` runs its statement at once ({@link RecordingPipelinedSql} is). A
 * Prisma-backed repository takes it as its client (`new Repository(sql as never)`) for the
 * statements it runs raw.
 */
export class RecordingSql {
  private recorded: RecordedStatement[] = [];

  constructor(
    private readonly answer: (statement: RecordedStatement) => unknown[] = () => [],
    private readonly changed: (statement: RecordedStatement) => number = () => 1,
  ) {}

  async $queryRawUnsafe<T = unknown>(text: string, ...values: unknown[]): Promise<T> {
    return this.query({ text, values }) as T;
  }

  async $executeRawUnsafe(text: string, ...values: unknown[]): Promise<number> {
    return this.execute({ text, values });
  }

  /** Prisma's tagged template: the text with `$1`, `$2`, ... where the values go. */
  async $queryRaw<T = unknown>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T> {
    return this.query(templateStatement(strings, values)) as T;
  }

  async $executeRaw(strings: TemplateStringsArray, ...values: unknown[]): Promise<number> {
    return this.execute(templateStatement(strings, values));
  }

  /** Runs `work` on itself between a recorded `BEGIN` and `COMMIT` (`ROLLBACK` when it throws). */
  async $transaction<R>(work: (tx: RecordingExecutor) => Promise<R>): Promise<R> {
    this.record({ text: 'BEGIN', values: [] });
    try {
      const result = await work(this);
      this.record({ text: 'COMMIT', values: [] });
      return result;
    } catch (error) {
      this.record({ text: 'ROLLBACK', values: [] });
      throw error;
    }
  }

  /** What `work` ran, as the entry of a queries file named `call` (the function and its inputs). */
  async entry(call: string, work: () => Promise<unknown>): Promise<SqlFileEntry> {
    this.take();
    await work();
    return { call, statements: this.take() };
  }

  /** The statements recorded since the last call, in the order they ran. */
  take(): RecordedStatement[] {
    const taken = this.recorded;
    this.recorded = [];
    return taken;
  }

  /** Records `statement` as run. */
  protected record(statement: RecordedStatement): void {
    this.recorded.push(statement);
  }

  /** Records a query; its rows. */
  protected query(statement: RecordedStatement): unknown[] {
    this.record(statement);
    return this.answer(statement);
  }

  /** Records an `$executeRawUnsafe`; the rows it changed. */
  protected execute(statement: RecordedStatement): number {
    this.record(statement);
    return this.changed(statement);
  }
}

function templateStatement(strings: TemplateStringsArray, values: unknown[]): RecordedStatement {
  return { text: strings.reduce((text, part, index) => `${text}$${index}${part}`), values };
}

/**
 * A {@link RecordingSql} that pipelines as `PgPoolSql` does (`PipelinedSqlExecutor` of
 * @service/sql): `$queryBatch` records and answers each statement of the batch, and a transaction
 * hands its work a {@link RecordingTransaction}, so statements are recorded in the order the
 * database receives them.
 */
export class RecordingPipelinedSql extends RecordingSql {
  /** Outside a transaction: the statements in one round trip; each one's rows. */
  async $queryBatch(statements: readonly RecordedStatement[]): Promise<unknown[][]> {
    return statements.map((statement) => this.query({ text: statement.text, values: statement.values }));
  }

  /**
   * Runs `work` on a {@link RecordingTransaction}: `BEGIN` is recorded with the first statement
   * sent, `COMMIT` after the writes deferred to it; a transaction that sent nothing records
   * nothing, and one that throws records `ROLLBACK` once something was sent (its deferred writes
   * never run).
   */
  override async $transaction<R>(work: (tx: RecordingTransaction) => Promise<R>): Promise<R> {
    const tx = new RecordingTransaction(
      (statement) => this.record(statement),
      (statement) => this.query(statement),
      (statement) => this.execute(statement),
    );
    let result: R;
    try {
      result = await work(tx);
    } catch (error) {
      tx.rollback();
      throw error;
    }
    tx.commit();
    return result;
  }
}

/**
 * The transaction of a {@link RecordingPipelinedSql}: a `PipelinedSqlExecutor` whose
 * `$executeDeferred` statements are recorded where they run, at the start of the next round
 * trip (before its statements, or before `COMMIT`).
 */
export class RecordingTransaction {
  private pending: RecordedStatement[] = [{ text: 'BEGIN', values: [] }];
  private sent = false;

  constructor(
    private readonly record: (statement: RecordedStatement) => void,
    private readonly query: (statement: RecordedStatement) => unknown[],
    private readonly execute: (statement: RecordedStatement) => number,
  ) {}

  async $queryRawUnsafe<T = unknown>(text: string, ...values: unknown[]): Promise<T> {
    this.roundTrip();
    return this.query({ text, values }) as T;
  }

  async $executeRawUnsafe(text: string, ...values: unknown[]): Promise<number> {
    this.roundTrip();
    return this.execute({ text, values });
  }

  async $queryBatch(statements: readonly RecordedStatement[]): Promise<unknown[][]> {
    if (statements.length === 0) return [];
    this.roundTrip();
    return statements.map((statement) => this.query({ text: statement.text, values: statement.values }));
  }

  $executeDeferred(text: string, ...values: unknown[]): void {
    this.pending.push({ text, values });
  }

  /** The pending statements (BEGIN first, then deferred writes), as the next round trip sends them first. */
  private roundTrip(): void {
    for (const statement of this.pending) this.record(statement);
    this.pending = [];
    this.sent = true;
  }

  commit(): void {
    if (!this.sent && this.pending.length === 1) return;
    this.roundTrip();
    this.record({ text: 'COMMIT', values: [] });
  }

  rollback(): void {
    this.pending = [];
    if (this.sent) this.record({ text: 'ROLLBACK', values: [] });
  }
}

/** One entry of a queries file: a call of a repository function (named with its inputs) and the statements it ran. */
export interface SqlFileEntry {
  readonly call: string;
  readonly statements: readonly RecordedStatement[];
}

/**
 * The text of a queries file: a header naming the module and the spec that writes it, then each
 * call as a `--` comment followed by its statements, each ending in `;`.
 */
export function renderSqlFile(module: string, writtenBy: string, entries: readonly SqlFileEntry[]): string {
  const header = [
    `-- The statements ${module} runs, as final SQL text with their $n placeholders.`,
    `-- Written by ${writtenBy} from the module's own functions; do not edit by hand:`,
    `-- UPDATE_SQL=1 rewrites it (see the service's README).`,
  ];
  const body = entries.map(({ call, statements }) => [`-- ${call}`, ...statements.map(({ text }) => `${dedent(text)};`)].join('\n'));
  return `${[header.join('\n'), ...body].join('\n\n')}\n`;
}

/** `text` without its leading and trailing blank lines, trailing spaces, or the indent its lines share. */
function dedent(text: string): string {
  const lines = text
    .replace(/\s+$/, '')
    .replace(/^\s*\n/, '')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''));
  const rest = lines.slice(1).filter((line) => line.trim().length > 0);
  const indent = Math.min(...rest.map((line) => /^ */.exec(line)?.[0].length ?? 0), Number.POSITIVE_INFINITY);
  return [lines[0]?.trim() ?? '', ...lines.slice(1).map((line) => (Number.isFinite(indent) ? line.slice(indent) : line))].join('\n');
}

/**
 * Compares the queries file at `path` with `text`: undefined when they are the same, else what to
 * do. With `UPDATE_SQL=1` in the environment it writes `text` there instead (and reports nothing).
 */
export function sqlFileDifference(path: string, text: string, update = process.env['UPDATE_SQL'] === '1'): string | undefined {
  const shown = relative(process.cwd(), path);
  if (update) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return undefined;
  }
  const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (current === text) return undefined;
  const was = (current ?? '').split('\n');
  const now = text.split('\n');
  const line = now.findIndex((each, index) => each !== was[index]);
  const at = line === -1 ? was.length : line;
  return [
    current === undefined ? `${shown} is missing.` : `${shown} differs from the statements the code runs, from line ${at + 1}:`,
    ...(current === undefined ? [] : [`  file: ${was[at] ?? '(end of file)'}`, `  code: ${now[at] ?? '(end of file)'}`]),
    'Rewrite it with UPDATE_SQL=1 (e.g. `UPDATE_SQL=1 node --experimental-vm-modules --no-warnings node_modules/jest/bin/jest.js -c <app>/jest.config.cjs <app>/src/queries`), review the diff and commit it.',
  ].join('\n');
}

/**
 * Checks the queries files of `dir` (a service's `src/queries`): for each module of `files`, its
 * entries rendered ({@link renderSqlFile}) against `<dir>/<module>.sql` ({@link sqlFileDifference};
 * `UPDATE_SQL=1` writes them), and no other `.sql` file there. Every difference found, or none.
 */
export async function queriesFileDifferences(
  dir: string,
  writtenBy: string,
  files: Readonly<Record<string, () => Promise<SqlFileEntry[]>>>,
): Promise<string[]> {
  const differences: string[] = [];
  for (const [module, entries] of Object.entries(files)) {
    const difference = sqlFileDifference(join(dir, `${module}.sql`), renderSqlFile(`${module}.ts`, writtenBy, await entries()));
    if (difference) differences.push(difference);
  }
  const stray = readdirSync(dir).filter((name) => name.endsWith('.sql') && !(name.slice(0, -'.sql'.length) in files));
  for (const name of stray)
    differences.push(`${relative(process.cwd(), join(dir, name))} is the file of no module the spec renders: delete it.`);
  return differences;
}
