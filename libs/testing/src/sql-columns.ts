import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A Prisma model as its table: the table's name and, per column, the field that maps to it. */
export interface PrismaTable {
  readonly model: string;
  readonly table: string;
  /** Column name (`@map`, else the field's name) -> field name. */
  readonly columns: ReadonlyMap<string, string>;
}

/**
 * The tables of a `schema.prisma` by table name (`@@map`, else the model's name): every scalar
 * field's column (`@map`, else the field's name, `Unsupported(...)` fields included); relation
 * fields, which are no column, are left out.
 */
export function prismaTables(schemaPath: string): Map<string, PrismaTable> {
  const text = readFileSync(schemaPath, 'utf8');
  const blocks = [...text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)];
  const models = new Set(blocks.map(([, name]) => name));
  const tables = new Map<string, PrismaTable>();
  for (const [, model, body] of blocks) {
    const columns = new Map<string, string>();
    let table = model as string;
    for (const raw of (body as string).split('\n')) {
      const line = raw.replace(/\/\/.*$/, '').trim();
      const mapped = /^@@map\("([^"]+)"\)/.exec(line);
      if (mapped) table = mapped[1] as string;
      const field = /^(\w+)\s+(\w+)/.exec(line);
      if (!field || line.startsWith('@')) continue;
      const [, name, type] = field as unknown as [string, string, string];
      if (models.has(type)) continue;
      columns.set(/@map\("([^"]+)"\)/.exec(line)?.[1] ?? name, name);
    }
    tables.set(table, { model: model as string, table, columns });
  }
  return tables;
}

/** One entry of a column list: the column, the alias it is read under, if any. */
export interface ListedColumn {
  /** The table alias it is qualified with (`w` in `w.org_id`), if any. */
  readonly qualifier?: string;
  readonly column: string;
  /** `AS` name (unquoted). */
  readonly alias?: string;
}

/** A hand-written column list found in SQL text. */
export interface ColumnList {
  readonly kind: 'insert' | 'select' | 'update';
  readonly table: string;
  /** The plain columns of the list (expressions such as `count(*)` or `to_char(...)` are left out). */
  readonly columns: readonly ListedColumn[];
  /** The whole list as written, to name it in a failure. */
  readonly text: string;
}

const IDENTIFIER = /^(?:"?(\w+)"?\.)?"?(\w+)"?(?:::[\w[\]]+(?:\([\d, ]+\))?)?(?:\s+AS\s+"?(\w+)"?)?$/i;
const NOT_COLUMNS = new Set(['null', 'true', 'false', 'distinct', 'default', 'now', 'current_timestamp']);
const CLAUSE_END = /^(FROM|WHERE|UNION|ORDER|GROUP|LIMIT|HAVING|RETURNING|ON|FOR|WINDOW|INTO)\b/i;

/** `text` split at its top-level commas (not inside parentheses or quotes). */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter((part) => part.length > 0);
}

/** The plain columns of a select or insert list (`[q.]column[::type] [AS alias]`); expressions are skipped. */
export function listedColumns(list: string): ListedColumn[] {
  const columns: ListedColumn[] = [];
  for (const entry of splitTopLevel(list.replace(/^\s*DISTINCT\s+/i, ''))) {
    const match = IDENTIFIER.exec(entry.replace(/\s+/g, ' '));
    if (!match) continue;
    const [, qualifier, column, alias] = match as unknown as [string, string | undefined, string, string | undefined];
    if (NOT_COLUMNS.has(column.toLowerCase()) || /^\d/.test(column)) continue;
    columns.push({ ...(qualifier ? { qualifier } : {}), column, ...(alias ? { alias } : {}) });
  }
  return columns;
}

/** Index of the end of the parenthesised or top-level span starting at `from`: where `stop` matches at depth 0. */
function scanTo(sql: string, from: number, stop: RegExp): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = from; i < sql.length; i++) {
    const ch = sql[i] as string;
    if (quote) {
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') {
      if (depth === 0) return i;
      depth--;
    } else if (depth === 0 && /\s/.test(sql[i - 1] ?? ' ') && stop.test(sql.slice(i, i + 12))) return i;
  }
  return sql.length;
}

/**
 * The column lists of `sql` that name a table of `tables`: every `INSERT INTO table (columns)`,
 * and every `SELECT list FROM ...` whose entries are qualified with the alias of a table of
 * `tables` in its FROM clause, or unqualified with exactly that one table there. Entries of other
 * sources (CTEs, subqueries) are left out.
 */
export function columnListsIn(sql: string, tables: ReadonlyMap<string, PrismaTable>): ColumnList[] {
  const lists: ColumnList[] = [];
  for (const match of sql.matchAll(/\bINSERT\s+INTO\s+(\w+)\s*\(([^)]*)\)/gi)) {
    const [text, table, list] = match as unknown as [string, string, string];
    if (tables.has(table)) lists.push({ kind: 'insert', table, columns: listedColumns(list), text });
  }
  for (const match of sql.matchAll(/\bSELECT\s/gi)) {
    const listStart = (match.index ?? 0) + match[0].length;
    let start = listStart;
    // `SELECT DISTINCT ON (expressions) list`: the expressions name columns too; the list follows them.
    const distinctOn = /^\s*DISTINCT\s+ON\s*\(/i.exec(sql.slice(start));
    let onList = '';
    if (distinctOn) {
      const open = start + distinctOn[0].length;
      const close = scanTo(sql, open, /(?!)/);
      onList = sql.slice(open, close);
      start = close + 1;
    }
    const end = scanTo(sql, start, CLAUSE_END);
    if (!/^FROM\b/i.test(sql.slice(end, end + 4))) continue;
    const sources = sql.slice(end + 4, scanTo(sql, end + 4, /^(WHERE|UNION|ORDER|GROUP|LIMIT|HAVING|FOR|WINDOW)\b/i));
    const aliases = new Map<string, string>();
    let plainSources = 0;
    for (const source of sources.matchAll(
      /(?:^|,|\bJOIN)\s*(?:LATERAL\s+)?(\(|\w+)(?:\s+(?:AS\s+)?(?!ON\b|JOIN\b|LEFT\b|CROSS\b|INNER\b|USING\b)(\w+))?/gi,
    )) {
      const [, name, alias] = source as unknown as [string, string, string | undefined];
      plainSources++;
      if (name !== '(' && tables.has(name)) aliases.set(alias ?? name, name);
    }
    if (aliases.size === 0) continue;
    const list = sql.slice(start, end);
    const text = sql.slice(listStart, end).trim();
    const only = plainSources === 1 ? [...aliases.values()][0] : undefined;
    const byTable = new Map<string, ListedColumn[]>();
    const add = (table: string, column: ListedColumn) => byTable.set(table, [...(byTable.get(table) ?? []), column]);
    for (const column of [...listedColumns(onList), ...listedColumns(list)]) {
      const table = column.qualifier ? aliases.get(column.qualifier) : only;
      if (table) add(table, column);
    }
    // Qualified references anywhere in the select (inside expressions, its WHERE): `pos.accrued_at`, `o.wallet_id`.
    for (const { qualifier, column } of qualifiedReferences(sql.slice(start, scanTo(sql, start, /^UNION\b/i)), aliases))
      if (!byTable.get(aliases.get(qualifier) as string)?.some((listed) => listed.column === column))
        add(aliases.get(qualifier) as string, { qualifier, column });
    for (const [table, columns] of byTable) lists.push({ kind: 'select', table, columns, text });
  }
  // An upsert's `ON CONFLICT ... DO UPDATE SET` names columns of the INSERT's table.
  for (const match of sql.matchAll(/\bINSERT\s+INTO\s+(\w+)[\s\S]*?\bDO\s+UPDATE\s+SET\s/gi)) {
    const [whole, table] = match as unknown as [string, string];
    if (!tables.has(table)) continue;
    const start = (match.index ?? 0) + whole.length;
    const end = scanTo(sql, start, /^(WHERE|RETURNING)\b/i);
    const columns = splitTopLevel(sql.slice(start, end)).flatMap((assignment) => {
      const target = /^"?(\w+)"?\s*=/.exec(assignment);
      return target ? [{ column: target[1] as string }] : [];
    });
    lists.push({ kind: 'update', table, columns, text: sql.slice(start, end).trim() });
  }
  for (const match of sql.matchAll(/\bUPDATE\s+(\w+)(?:\s+(?:AS\s+)?(?!SET\b)(\w+))?\s+SET\s/gi)) {
    const [whole, table, alias] = match as unknown as [string, string, string | undefined];
    if (!tables.has(table)) continue;
    const start = (match.index ?? 0) + whole.length;
    const end = scanTo(sql, start, /^(WHERE|FROM|RETURNING)\b/i);
    const assignments = splitTopLevel(sql.slice(start, end));
    const columns: ListedColumn[] = assignments.flatMap((assignment) => {
      const target = /^"?(\w+)"?\s*=/.exec(assignment);
      return target ? [{ column: target[1] as string }] : [];
    });
    const aliases = new Map([[alias ?? table, table]]);
    for (const reference of qualifiedReferences(sql.slice(start, scanTo(sql, start, /^UNION\b/i)), aliases))
      if (!columns.some((listed) => listed.column === reference.column)) columns.push(reference);
    lists.push({ kind: 'update', table, columns, text: sql.slice(match.index ?? 0, end).trim() });
  }
  return lists;
}

/** The `alias.column` references in `sql` whose alias is one of `aliases`. */
function qualifiedReferences(sql: string, aliases: ReadonlyMap<string, string>): { qualifier: string; column: string }[] {
  const found: { qualifier: string; column: string }[] = [];
  for (const [, qualifier, column] of sql.matchAll(/(?<![\w.$])"?(\w+)"?\."?(\w+|\*)"?/g) as IterableIterator<[string, string, string]>)
    if (aliases.has(qualifier) && column !== '*' && !found.some((f) => f.qualifier === qualifier && f.column === column))
      found.push({ qualifier, column });
  return found;
}

/** What is wrong with `list` against its table: a column the table lacks, or an alias that is not the column's field name. */
export function columnListProblems(
  list: ColumnList,
  tables: ReadonlyMap<string, PrismaTable>,
  options: { readonly renames?: readonly string[] } = {},
): string[] {
  const table = tables.get(list.table);
  if (!table) return [`${list.table}: no such table in the Prisma schema`];
  const problems: string[] = [];
  for (const { column, alias } of list.columns) {
    const field = table.columns.get(column);
    if (field === undefined) problems.push(`${list.table}.${column}: no such column in model ${table.model}`);
    // A camelCase alias is a row type's field name: it must be the model's own name for that column.
    else if (alias && alias !== column && alias !== field && /[A-Z]/.test(alias) && !options.renames?.includes(`${column} AS ${alias}`))
      problems.push(`${list.table}.${column} AS "${alias}": model ${table.model} names it ${field}`);
  }
  return problems;
}

/** The columns of `table` that `list` does not name, less `except`. */
export function missingColumns(list: ColumnList, tables: ReadonlyMap<string, PrismaTable>, except: readonly string[] = []): string[] {
  const table = tables.get(list.table);
  if (!table) return [];
  const named = new Set(list.columns.map(({ column }) => column));
  return [...table.columns.keys()].filter((column) => !named.has(column) && !except.includes(column));
}

/** A string literal or template of TypeScript source, with the name of the constant it is assigned to, if any. */
interface SourceText {
  readonly file: string;
  readonly name?: string;
  readonly text: string;
}

/** The `.ts` files under `dir`, specs and generated code left out. */
export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (entry !== 'generated' && entry !== 'node_modules') files.push(...sourceFiles(path));
    } else if (entry.endsWith('.ts') && !entry.endsWith('.spec.ts') && !entry.endsWith('.d.ts')) files.push(path);
  }
  return files.sort();
}

/**
 * The SQL of a service's sources as written: every template and string literal that holds SQL,
 * with `${NAME}` of a constant of the service's sources (a fragment such as `WALLET_COLUMNS`) put
 * in, and any other interpolation as `$expr` (an expression, never a column).
 */
export function sqlOfSources(srcDir: string): SourceText[] {
  const texts: SourceText[] = [];
  for (const path of sourceFiles(srcDir)) {
    // Comments out first: a backtick or quote in prose would pair with one in code.
    const source = readFileSync(path, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const file = relative(srcDir, path);
    for (const match of source.matchAll(/(?:const\s+(\w+)\s*=\s*)?(`(?:[^`\\]|\\.)*`|'(?:[^'\\\n]|\\.)*')/g)) {
      const [, name, literal] = match as unknown as [string, string | undefined, string];
      texts.push({ file, ...(name ? { name } : {}), text: literal.slice(1, -1) });
    }
  }
  const constants = new Map(texts.filter((t) => t.name).map((t) => [t.name as string, t.text]));
  const resolve = (text: string, depth = 0): string =>
    text.replace(/\$\{\s*(\w+)\s*\}|\$\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}/g, (_whole, name: string | undefined) => {
      const value = name ? constants.get(name) : undefined;
      return value !== undefined && depth < 5 ? resolve(value, depth + 1) : '$expr';
    });
  return texts.map((t) => ({ ...t, text: resolve(t.text) })).filter((t) => /\b(SELECT|INSERT|UPDATE|DELETE)\b/.test(t.text));
}

/** A column list found in a service's sources, with the file it is in. */
export interface SourceColumnList extends ColumnList {
  readonly file: string;
  readonly name?: string;
}

/** Every column list of the SQL in `srcDir`'s sources that names a table of `tables` ({@link columnListsIn}). */
export function columnListsOfSources(srcDir: string, tables: ReadonlyMap<string, PrismaTable>): SourceColumnList[] {
  return sqlOfSources(srcDir).flatMap(({ file, name, text }) =>
    columnListsIn(text, tables).map((list) => ({ ...list, file, ...(name ? { name } : {}) })),
  );
}

/** A column list meant to name every column of its table: a row type read with SELECT, or an insert that writes every column. */
export interface CompleteList {
  /** The source file (relative to `src`) and the list's kind and table; every list found there that matches must be complete. */
  readonly file: string;
  readonly kind: ColumnList['kind'];
  readonly table: string;
  /**
   * Every SELECT list of that table in the file (a JSON row such as `positionsJson`); by default
   * only those that read a column under a camelCase alias (a row type), not a subquery's `EXISTS`.
   */
  readonly every?: boolean;
  /** Columns the list leaves out on purpose (read as an expression, a filter key, a default), each with its reason. */
  readonly except?: Readonly<Record<string, string>>;
}

export interface ColumnListReport {
  /** Every column list of the service's SQL that names a table of its Prisma schema. */
  readonly lists: readonly SourceColumnList[];
  /** A column that no model has, or a camelCase alias that is not the model's field name. */
  readonly unknown: readonly string[];
  /** A column of a model that a list meant to be complete leaves out, or a declared list that was not found. */
  readonly missing: readonly string[];
}

/**
 * Checks every hand-written column list in the SQL of `<appRoot>/src` against the Prisma models of
 * `<appRoot>/prisma/schema.prisma` ({@link columnListsOfSources}): each column exists, each
 * camelCase alias is the model's field name (or one of `renames`, `'column AS alias'`), and the
 * lists of `complete` name every column of their table.
 */
export function checkColumnLists(
  appRoot: string,
  options: { readonly complete?: readonly CompleteList[]; readonly renames?: readonly string[] } = {},
): ColumnListReport {
  const tables = prismaTables(join(appRoot, 'prisma/schema.prisma'));
  const lists = columnListsOfSources(join(appRoot, 'src'), tables);
  const where = (list: SourceColumnList) => `${list.file}${list.name ? ` (${list.name})` : ''}, ${list.kind} ${list.table}`;
  const unknown = lists.flatMap((list) => columnListProblems(list, tables, options).map((problem) => `${where(list)}: ${problem}`));
  const missing: string[] = [];
  for (const declared of options.complete ?? []) {
    const rowType = (list: ColumnList) =>
      list.kind !== 'select' || declared.every || list.columns.some(({ alias }) => alias && /[A-Z]/.test(alias));
    const matching = lists.filter(
      (list) => list.file === declared.file && list.kind === declared.kind && list.table === declared.table && rowType(list),
    );
    if (matching.length === 0) missing.push(`${declared.file}, ${declared.kind} ${declared.table}: no such column list`);
    for (const list of matching) {
      const left = missingColumns(list, tables, Object.keys(declared.except ?? {}));
      if (left.length > 0) missing.push(`${where(list)}: leaves out ${left.join(', ')}`);
    }
  }
  return { lists, unknown: [...new Set(unknown)], missing: [...new Set(missing)] };
}
