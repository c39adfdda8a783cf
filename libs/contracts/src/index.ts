export * from './subjects.js';
export * from './rpc.js';
export * from './contract.js';
export * from './roles.js';
export * from './org-id.js';
export * from './api-key-hash.js';
export * from './events/index.js';
export * from './dto/index.js';
export type { Page } from '@service/pagination';
