export * from './sql.js';
export * from './pool.js';
export * from './pg-sql.js';
export * from './turn-reads.js';
export * from './group-commit.js';
