export { applyMigrations, type ApplyMigrationsOptions } from './apply-migrations.js';
export { createMigration, shadowDatabaseFor, type CreateMigrationOptions, type ShadowDatabaseOptions } from './create-migration.js';
export { MigrationError, isMigrationError, type MigrationErrorCode } from './errors.js';
export { migrationChecksum } from './migrations-dir.js';
export { ensureDatabase } from './postgres.js';
