#!/usr/bin/env node
/**
 * The build of an app or lib: `node tools/build/transpile.mjs <projectRoot>` writes
 * `<projectRoot>/dist` from `<projectRoot>/src` (every `.ts` but specs and `.d.ts`), one ES module
 * and its source map per file, with swc (tools/build/swc-options.cjs).
 *
 * It does not type-check: `npm run typecheck` (tsc over the whole repository, with
 * `isolatedModules`, so every file is safe to transpile on its own) already has, and a second
 * tsc per project spent most of its time parsing the same declarations again. No declaration
 * files are written: nothing reads the libs' types from dist (the type check resolves `@service/*`
 * to sources); the SDK, which publishes its types, is built by tsc.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { transformFile } from '@swc/core';

const require = createRequire(import.meta.url);
const options = require('./swc-options.cjs');

const projectRoot = path.resolve(process.argv[2] ?? '');
const excludes = process.argv
  .slice(3)
  .filter((arg) => arg.startsWith('--exclude='))
  .map((arg) => arg.slice('--exclude='.length));
const srcDir = path.join(projectRoot, 'src');
const distDir = path.join(projectRoot, 'dist');

/** Source files below `dir`, relative to src. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    const relative = path.relative(srcDir, full);
    if (excludes.some((prefix) => relative === prefix || relative.startsWith(`${prefix}/`))) return [];
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

const files = sources(srcDir);
if (files.length === 0) throw new Error(`no TypeScript sources in ${srcDir}`);
// A fresh dist: a file removed from src must not linger as a module something can still import.
rmSync(distDir, { recursive: true, force: true });
await Promise.all(
  files.map(async (relative) => {
    const source = path.join(srcDir, relative);
    const target = path.join(distDir, relative.replace(/\.ts$/, '.js'));
    const output = await transformFile(source, {
      ...options,
      swcrc: false,
      configFile: false,
      sourceMaps: true,
      sourceFileName: path.relative(path.dirname(target), source),
    });
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, `${output.code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
    writeFileSync(`${target}.map`, output.map ?? '');
  }),
);
