// The one swc configuration of the repository: the apps' and libs' builds (tools/build/transpile.mjs)
// and Jest (jest.preset.cjs) transpile TypeScript the same way. Decorators are TypeScript's legacy
// ones with metadata (Nest's dependency injection, class-validator and @nestjs/swagger read
// `design:type`), class fields keep TypeScript's assignment semantics (useDefineForClassFields
// false, as tsconfig.base.json), and imports stay ES modules.
module.exports = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
  },
  module: { type: 'es6' },
};
