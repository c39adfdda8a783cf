export * from './cursor.js';
export * from './newest-first.js';
