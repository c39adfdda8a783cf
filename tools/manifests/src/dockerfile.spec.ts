import { describe, it, expect } from '@jest/globals';
import { Arg, Cmd, Copy, DockerfileParser, Env, type Instruction } from 'dockerfile-ast';
import { readWorkspaceFile } from './support.js';

interface Stage {
  name: string | null;
  image: string | null;
  instructions: Instruction[];
}

function stages(): Stage[] {
  const dockerfile = DockerfileParser.parse(readWorkspaceFile('docker/Dockerfile'));
  const result: Stage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const [image, as, name] = instruction.getArguments().map((a) => a.getValue());
      result.push({ image, name: as?.toUpperCase() === 'AS' ? name : null, instructions: [] });
    } else if (result.length > 0) {
      result[result.length - 1].instructions.push(instruction);
    }
  }
  return result;
}

const of = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.getKeyword() === keyword);
const text = (instructions: Instruction[]) => instructions.map((i) => i.getArgumentsContent() ?? '').join('\n');

function envOf(stage: Stage): Map<string, string | null> {
  const env = new Map<string, string | null>();
  for (const instruction of stage.instructions) {
    if (instruction instanceof Env) for (const p of instruction.getProperties()) env.set(p.getName(), p.getValue());
  }
  return env;
}

function declaresArg(stage: Stage, name: string): boolean {
  return stage.instructions.some((i) => i instanceof Arg && i.getProperty()?.getName() === name);
}

describe('docker/Dockerfile', () => {
  const all = stages();
  const runtime = all[all.length - 1];
  const build = all.find((s) => /nx build/.test(text(of(s, 'RUN'))));

  // Node 24 LTS (supported until April 2028): Node 20 left support in April 2026, and several
  // dependencies (cookie, file-type, @prisma/streams-local) require Node 22 or later.
  // Exactly the release CI tests on, so the image runs what the tests ran on.
  it('is multi-stage on node:24-bookworm-slim, a supported LTS, pinned to the release CI tests on', () => {
    const ciNode = /^IMAGE_NODE_VERSION=(\S+)$/m.exec(readWorkspaceFile('.ci/run'))?.[1];
    expect(ciNode).toMatch(/^24\.\d+\.\d+$/);
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(build).toBeDefined();
    expect(build!.image).toBe(`node:${ciNode}-bookworm-slim`);
    expect(runtime.image).toBe(`node:${ciNode}-bookworm-slim`);
    expect(runtime).not.toBe(build);
    for (const stage of all) expect(String(stage.image)).not.toMatch(/^node:(1\d|20|21|23)\b/);
  });

  it('selects the app with ARG APP in the build and runtime stages', () => {
    expect(declaresArg(build!, 'APP')).toBe(true);
    expect(declaresArg(runtime, 'APP')).toBe(true);
  });

  it('builds the app and the migration tool with npm install (npm ci fails with this lock file)', () => {
    const runs = text(of(build!, 'RUN'));
    expect(runs).toMatch(/npm install\b/);
    expect(runs).toMatch(/nx build "?\$\{?APP\}?"?/);
    expect(runs).toMatch(/nx build migrate-tool/);
    expect(all.map((s) => text(of(s, 'RUN'))).join('\n')).not.toMatch(/npm ci\b/);
  });

  it('installs production dependencies only in the runtime stage and ships the migration tool', () => {
    const runs = text(of(runtime, 'RUN'));
    expect(runs).toMatch(/npm install\b.*--omit=dev/);
    expect(runs).not.toMatch(/nx build/);
    expect(envOf(runtime).get('NODE_ENV')).toBe('production');
    expect(text(of(build!, 'RUN'))).toMatch(/tools\/migrate\/dist/);
    const copiedFrom = runtime.instructions.flatMap((i) => (i instanceof Copy ? [i.getFromFlag()?.getValue()] : []));
    expect(copiedFrom).toContain(build!.name);
  });

  it('runs as a non-root user and stops with SIGTERM', () => {
    const users = of(runtime, 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users[users.length - 1].getArgumentsContent()!.split(':')[0];
    expect(['root', '0', '']).not.toContain(user);
    // Numeric, so Kubernetes' runAsNonRoot can verify it without a passwd lookup.
    expect(user).toMatch(/^[1-9]\d*$/);
    expect(text(of(runtime, 'STOPSIGNAL'))).toBe('SIGTERM');
  });

  it('starts node on apps/<APP>/dist/main.js through an ENV set from the ARG, with node as PID 1', () => {
    const cmds = runtime.instructions.filter((i): i is Cmd => i instanceof Cmd);
    expect(cmds).toHaveLength(1);
    const argv = JSON.parse(cmds[0].getRawArgumentsContent() ?? 'null') as string[];
    expect(Array.isArray(argv)).toBe(true);
    const command = argv.join(' ');
    const variable = /apps\/\$\{?(\w+)\}?\/dist\/main\.js/.exec(command)?.[1];
    expect(variable).toBeDefined();
    expect(envOf(runtime).get(variable!)).toMatch(/^\$\{?APP\}?$/);
    // A shell would stay PID 1 and swallow SIGTERM unless it execs node.
    if (argv[0] !== 'node') expect(command).toMatch(/exec node /);
    expect(of(runtime, 'ENTRYPOINT')).toEqual([]);
  });
});

describe('.dockerignore', () => {
  it('keeps host builds and installs out of the build context', () => {
    const patterns = readWorkspaceFile('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    for (const required of ['**/node_modules', '**/dist', '**/*.tsbuildinfo', '.git', '.nx']) {
      expect(patterns).toContain(required);
    }
  });
});
