export * from './cursor.js';
