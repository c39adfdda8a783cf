// Preloaded into the gateway by `BENCH_CPU_PROF=1 npm run bench` (NODE_OPTIONS=--require ...):
// the first SIGUSR2 starts V8's sampling profiler, the next writes the profile to
// $BENCH_CPU_PROF_DIR/<BENCH_CPU_PROF_NAME>-<pid>-<n>.cpuprofile (open it in Chrome DevTools or
// speedscope). --cpu-prof itself is not allowed in NODE_OPTIONS and only writes on a clean exit.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const inspector = require('node:inspector');

const dir = process.env.BENCH_CPU_PROF_DIR || '.';
const name = process.env.BENCH_CPU_PROF_NAME || 'process';
const session = new inspector.Session();
session.connect();
let running = false;
let count = 0;

process.on('SIGUSR2', () => {
  if (!running) {
    running = true;
    session.post('Profiler.enable', () => session.post('Profiler.start'));
    return;
  }
  running = false;
  session.post('Profiler.stop', (error, result) => {
    if (error) return;
    count += 1;
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name}-${process.pid}-${count}.cpuprofile`);
    fs.writeFileSync(`${file}.partial`, JSON.stringify(result.profile));
    fs.renameSync(`${file}.partial`, file);
  });
});
