import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats } from '@service/nats';
import {
  freePort,
  NATS_USERS,
  type NatsUser,
  natsPasswordVariable,
  natsServerBinary,
  newNatsPasswords,
  reapOnExit,
  SHIPPED_NATS_CONFIG,
} from '@service/testing';
import { commonConfigSpec, type EnvSource, loadConfig } from './config.js';
import { natsClientAuthOf } from './nats-auth.js';

/**
 * TLS to NATS end to end: a nats-server of this spec alone running the shipped configuration
 * (k8s/base/nats/nats-server.conf, a user per app) with `--tls` and a certificate signed by a CA
 * made here with openssl, and apps connecting the way they boot (their environment through the
 * config spec, `natsClientAuthOf`, `connectNats`), as k8s/base/nats/README.md ("TLS") tells them
 * to: `NATS_URL=tls://...` and `NATS_TLS_CA`.
 *
 * The URL names the server by host name, as `tls://nats:4222` does in Kubernetes: given an IP
 * address, nats.js sends no TLS server name and Node then checks the certificate against
 * "localhost", so `tls://127.0.0.1:<port>` fails with a certificate for 127.0.0.1.
 */

let dir: string;
let server: ChildProcess | undefined;
let exited: Promise<void>;
let port: number;
let passwords: Record<NatsUser, string>;
const connections: NatsConnection[] = [];

/** Runs `openssl` in `dir` with `args` (words separated by spaces). */
function openssl(args: string): void {
  execFileSync('openssl', args.split(' '), { cwd: dir, stdio: 'pipe' });
}

/** A CA and a certificate it signed for localhost (P-256, valid one day), in `dir`. */
function makeCertificates(): void {
  const ec = '-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes';
  const ca = '-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign';
  openssl(`req -x509 ${ec} -keyout ca.key -out ca.pem -days 1 -subj /CN=nats-tls-spec-ca ${ca}`);
  openssl(`req -new ${ec} -keyout server.key -out server.csr -subj /CN=localhost`);
  writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n');
  openssl('x509 -req -in server.csr -CA ca.pem -CAkey ca.key -set_serial 1 -days 1 -extfile server.ext -out server.pem');
}

function accepts(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** The environment of `user`'s app against this server: its password, and `extra` (NATS_URL, TLS variables). */
function envOf(user: NatsUser, extra: EnvSource): EnvSource {
  return { SERVICE_ENV: 'production', NATS_USER: user, NATS_PASSWORD: passwords[user], ...extra };
}

/** Connects as an app does at boot (ServiceCoreModule, runService): config spec, natsClientAuthOf, connectNats. */
async function connectAsApp(user: NatsUser, env: EnvSource): Promise<NatsConnection> {
  const config = loadConfig(commonConfigSpec, env);
  const connection = await connectNats({ url: config.NATS_URL, name: `${user}-tls-spec`, auth: natsClientAuthOf(config, user) });
  connections.push(connection);
  return connection;
}

/** What the server says to a client that does not start TLS: everything it writes until it closes the connection. */
function plainSession(user: NatsUser): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = createConnection({ host: '127.0.0.1', port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept a plain connection open; it said:\n${text}`));
    }, 5_000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const first = text === '';
      text += chunk;
      // After the server's INFO, log in as a plain client would and ask for a PONG.
      if (first) socket.write(`CONNECT ${JSON.stringify({ verbose: false, pedantic: false, user, pass: passwords[user] })}\r\nPING\r\n`);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'nats-tls-spec-'));
  makeCertificates();
  const storeDir = path.join(dir, 'store');
  mkdirSync(storeDir);
  port = await freePort();
  passwords = newNatsPasswords();
  const passwordEnv = Object.fromEntries(NATS_USERS.map((user) => [natsPasswordVariable(user), passwords[user]]));
  const tls = ['--tls', '--tlscert', path.join(dir, 'server.pem'), '--tlskey', path.join(dir, 'server.key')];
  const args = ['-c', SHIPPED_NATS_CONFIG, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir, ...tls];
  const child = spawn(natsServerBinary(), args, { stdio: 'ignore', env: { PATH: process.env['PATH'] ?? '', ...passwordEnv } });
  server = child;
  reapOnExit(child);
  exited = new Promise((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts())) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`nats-server with TLS did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}, 15_000);

afterAll(async () => {
  await Promise.all(connections.map((connection) => connection.close()));
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGTERM');
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('NATS over TLS with the shipped server configuration', () => {
  it('carries a request and its reply between apps that connect with NATS_URL=tls://... and NATS_TLS_CA', async () => {
    const tlsEnv = { NATS_URL: `tls://localhost:${port}`, NATS_TLS_CA: path.join(dir, 'ca.pem') };
    const wallet = await connectAsApp('wallet', envOf('wallet', tlsEnv));
    const gateway = await connectAsApp('gateway', envOf('gateway', tlsEnv));
    expect(gateway.info?.tls_required).toBe(true);

    // The wallet user serves `wallet.>` and may answer; the gateway user may ask it and read its own inbox.
    const subscription = wallet.subscribe('wallet.tls-spec.echo', {
      callback: (error, message) => {
        if (!error) message.respond(`echo ${message.string()}`);
      },
    });
    await wallet.flush();
    const reply = await gateway.request('wallet.tls-spec.echo', 'over tls', { timeout: 2_000 });
    expect(reply.string()).toBe('echo over tls');
    subscription.unsubscribe();
  });

  it('refuses the connection when the client does not trust the CA that signed the server certificate', async () => {
    // No NATS_TLS_CA: the system CAs, which never signed this server's certificate.
    await expect(connectAsApp('gateway', envOf('gateway', { NATS_URL: `tls://localhost:${port}` }))).rejects.toThrow(
      /^TLS to NATS at tls:\/\/localhost:\d+ failed \(.*certificate.*\): NATS_TLS_CA/,
    );
  });

  it('is refused by the server when the client speaks plain NATS', async () => {
    // nats.js never stays plain (it starts TLS whenever the server's INFO requires it), so this
    // client speaks the protocol itself: the right user and password in clear, then PING. The
    // server wants a TLS handshake instead and hangs up.
    const said = await plainSession('gateway');
    // Its INFO (TLS required) and nothing more: no PONG, not even an error.
    expect(said).toMatch(/^INFO [^\r\n]*"tls_required":true[^\r\n]*\r\n$/);
  });
});
