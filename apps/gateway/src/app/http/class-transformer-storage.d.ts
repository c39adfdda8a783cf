// class-transformer's metadata (which properties have @Type and @Transform) is only reachable
// through its CommonJS build's storage module, which ships no types of its own; Nest's
// mapped-types reads it the same way.
declare module 'class-transformer/cjs/storage.js' {
  export * from 'class-transformer/types/storage.js';
}
