import { checkDependencies } from './dependencies.js';

/** Exits non-zero, saying what to start, unless PostgreSQL, NATS with JetStream and Redis answer. */
const problems = await checkDependencies({
  database: process.env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  nats: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
  redis: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
});
for (const problem of problems) console.error(`${problem.name} does not answer (${problem.detail}); ${problem.fix}`);
process.exit(problems.length === 0 ? 0 : 1);
