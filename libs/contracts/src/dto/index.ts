export * from './system.dto.js';
export * from './errors.dto.js';
export * from './page.dto.js';
export * from './gvault.dto.js';
export * from './webhook.dto.js';
export * from './wallet.dto.js';
export * from './microvault.dto.js';
export * from './activity.dto.js';
