export * from './system.dto.js';
export * from './errors.dto.js';
export * from './page.dto.js';
export * from './gvault.dto.js';
