import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { sourceFiles } from './sql-columns.js';

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

/**
 * A call that runs raw SQL (or adds a statement to one): Prisma's raw calls and tagged templates,
 * the pipelined executor's batches and deferred writes, wallet-service's `Writes`, `runQuery` /
 * `runQueries` / `executeWrite` of @service/sql, the outbox insert of @service/events, and
 * postgres.js's `unsafe`.
 */
export const RAW_SQL_CALL =
  /\$(?:queryRawUnsafe|executeRawUnsafe|queryBatch|executeDeferred)\b|\$(?:queryRaw|executeRaw)(?:<[^>`]*>)?`|\bwrites\.(?:add\w*|run)\(|\b(?:runQuery|runQueries|executeWrite|enqueueEvent|outboxInsert)\(|\.unsafe\(/;

/** A function a module exports (`name`, or `Class.method` for a public method of an exported class) that runs raw SQL. */
export interface RawSqlFunction {
  /** The module, relative to the service's `src` (`app/repositories/risk.repository.ts`). */
  readonly file: string;
  readonly name: string;
}

/**
 * The exported functions of the modules under `<srcDir>/app` (specs, declarations and generated
 * code left out, {@link sourceFiles}) that run raw SQL: those whose body has a
 * {@link RAW_SQL_CALL}, or calls (by name, or as `this.name`) a function or method of the same
 * module that does. Public methods of an exported class count as its exports. A module with no
 * such call exports none.
 */
export function rawSqlFunctions(srcDir: string): RawSqlFunction[] {
  const found: RawSqlFunction[] = [];
  for (const path of sourceFiles(join(srcDir, 'app'))) {
    const text = readFileSync(path, 'utf8');
    if (!RAW_SQL_CALL.test(text)) continue;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    // Every function of the module by the name a call reaches it by: `name` (top level) or `this.name` (a method of its class).
    const members: { key: string; exported?: string; body: string }[] = [];
    const exported = (node: ts.Node) =>
      ts.getModifiers(node as ts.HasModifiers)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
    for (const statement of source.statements) {
      if (ts.isFunctionDeclaration(statement) && statement.name && statement.body)
        members.push({
          key: statement.name.text,
          ...(exported(statement) ? { exported: statement.name.text } : {}),
          body: statement.body.getText(source),
        });
      else if (ts.isVariableStatement(statement))
        for (const declaration of statement.declarationList.declarations)
          if (
            ts.isIdentifier(declaration.name) &&
            declaration.initializer &&
            (ts.isArrowFunction(declaration.initializer) || ts.isFunctionExpression(declaration.initializer))
          )
            members.push({
              key: declaration.name.text,
              ...(exported(statement) ? { exported: declaration.name.text } : {}),
              body: declaration.initializer.body.getText(source),
            });
      if (ts.isClassDeclaration(statement) && statement.name) {
        const className = statement.name.text;
        for (const member of statement.members) {
          if (!(ts.isMethodDeclaration(member) || ts.isPropertyDeclaration(member)) || !ts.isIdentifier(member.name)) continue;
          const body = ts.isMethodDeclaration(member) ? member.body : member.initializer;
          if (!body) continue;
          const hidden = ts
            .getModifiers(member)
            ?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword);
          members.push({
            key: `this.${member.name.text}`,
            ...(exported(statement) && !hidden && !member.name.text.startsWith('#')
              ? { exported: `${className}.${member.name.text}` }
              : {}),
            body: body.getText(source),
          });
        }
      }
    }
    const raw = new Set(members.filter(({ body }) => RAW_SQL_CALL.test(body)).map(({ key }) => key));
    for (let grown = true; grown;) {
      grown = false;
      for (const { key, body } of members) {
        if (raw.has(key)) continue;
        const calls = [...raw].some((callee) => new RegExp(`(?<![\\w.$])${callee.replace(/[.$]/g, '\\$&')}\\s*[(<]`).test(body));
        if (calls) {
          raw.add(key);
          grown = true;
        }
      }
    }
    for (const { key, exported: name } of members) if (name && raw.has(key)) found.push({ file: relative(srcDir, path), name });
  }
  return found;
}

/**
 * The functions the entry headers of the `.sql` files under `dir` (its subdirectories too) name:
 * what comes before `(` in each `-- call(...)`, with the names of the files that name it.
 */
export function recordedCalls(dir: string): Map<string, string[]> {
  const named = new Map<string, string[]>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      for (const [name, files] of recordedCalls(join(dir, entry.name))) named.set(name, [...(named.get(name) ?? []), ...files]);
      continue;
    }
    if (!entry.name.endsWith('.sql')) continue;
    for (const [, name] of readFileSync(join(dir, entry.name), 'utf8').matchAll(/^-- ([\w.$]+)\(/gm) as IterableIterator<[string, string]>)
      named.set(name, [...(named.get(name) ?? []), entry.name]);
  }
  return named;
}

/**
 * What makes the queries files of a service (`<appRoot>/src/queries`) incomplete: each exported
 * function under `<appRoot>/src/app` that runs raw SQL ({@link rawSqlFunctions}) and that no entry
 * header of those files names ({@link recordedCalls}: `name(`, or for `Class.method` either
 * `Class.method(` or, in the module's own file, `method(`), unless `elsewhere` lists it
 * (`'file: name'`, e.g. `'app/repositories/writes.ts: Writes.run'`) with the reason its statements
 * are recorded under another entry. A name of `elsewhere` that is not such a function is reported
 * too, so the list cannot go stale.
 */
export function unrecordedRawSqlFunctions(appRoot: string, elsewhere: Readonly<Record<string, string>> = {}): string[] {
  const recorded = recordedCalls(join(appRoot, 'src/queries'));
  const functions = rawSqlFunctions(join(appRoot, 'src'));
  const problems: string[] = [];
  for (const { file, name } of functions) {
    const key = `${file}: ${name}`;
    if (key in elsewhere) continue;
    const module = file.replace(/^.*\//, '').replace(/\.ts$/, '');
    const method = name.includes('.') ? name.slice(name.indexOf('.') + 1) : undefined;
    const named =
      recorded.has(name) ||
      (method !== undefined && (recorded.get(method) ?? []).some((sql) => sql === `${module}.sql` || sql.startsWith(`${module}.`)));
    if (!named)
      problems.push(
        `${key} runs raw SQL but no entry of src/queries/*.sql names it: record it in src/queries/queries.spec.ts (UPDATE_SQL=1), or list it as covered elsewhere with the reason.`,
      );
  }
  for (const key of Object.keys(elsewhere))
    if (!functions.some(({ file, name }) => `${file}: ${name}` === key))
      problems.push(`${key} is listed as covered elsewhere but runs no raw SQL (or is gone): drop it.`);
  return problems;
}
