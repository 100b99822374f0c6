// Starting and stopping the reference server (examples/server) for the interop suite,
// and a small JSON client for it. Node's standard library only.

import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the directory above interop/. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const buildTimeoutMs = 8 * 60_000;
const startTimeoutMs = 30_000;
const stopTimeoutMs = 20_000;

function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 16 << 20, ...opts }, (err, stdout, stderr) => {
      if (err) {
        err.message = `${cmd} ${args.join(' ')}: ${err.message}\n${stderr}`;
        reject(err);
        return;
      }
      resolve(stdout);
    });
  });
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
async function freePort() {
  const srv = net.createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address();
  srv.close();
  await once(srv, 'close');
  return port;
}

/**
 * Builds the reference server (or takes VERILAND_SERVER_BIN), starts it on a free
 * loopback port with a fresh data directory, and resolves once it logs
 * "listening on". The returned object has the origin, the binary, the data
 * directory, mintToken() and stop().
 *
 * options.args are extra command-line flags (e.g. PRODUCTION's -eth-rpc, -anchor-key,
 * -chain-id), options.env extra environment variables of the server process and
 * options.startTimeoutMs how long to wait for "listening on" (default 30 s), and
 * options.bin a server binary to run (e.g. from serverBinary()) instead of building one;
 * startServer() with none of them starts the plain SANDBOX server.
 */
export async function startServer({ args = [], env = {}, startTimeoutMs: waitMs = startTimeoutMs, bin: given = '' } = {}) {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'veriland-interop-'));
  let bin = given || (process.env.VERILAND_SERVER_BIN ? path.resolve(process.env.VERILAND_SERVER_BIN) : '');
  if (!bin) {
    bin = path.join(tmp, 'veriland-server');
    try {
      await run('go', ['build', '-o', bin, './examples/server'], { cwd: repoRoot, timeout: buildTimeoutMs });
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      throw err;
    }
  }
  const data = path.join(tmp, 'data');
  const logPath = path.join(tmp, 'server.log');

  // The port is free when asked but could be taken before the server binds it:
  // try a few times.
  let lastErr;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    try {
      const child = await spawnServer(bin, data, port, origin, logPath, args, env, waitMs);
      return {
        origin, bin, data, tmp, logPath,
        mintToken: (role, env, acct) => mint(bin, data, role, env, acct),
        stop: async () => {
          await stopChild(child);
          if (!process.env.VERILAND_INTEROP_KEEP) await rm(tmp, { recursive: true, force: true });
        },
      };
    } catch (err) {
      lastErr = err;
      if (!/address already in use/.test(err.message)) break;
    }
  }
  await rm(tmp, { recursive: true, force: true });
  throw lastErr;
}

let builtBinary;

/**
 * The reference server's binary, built once for this process into a temporary directory
 * removed at exit (or VERILAND_SERVER_BIN): for a test that looks at the binary's flags
 * before it starts the server, or starts it more than once.
 */
export function serverBinary() {
  if (process.env.VERILAND_SERVER_BIN) return Promise.resolve(path.resolve(process.env.VERILAND_SERVER_BIN));
  builtBinary ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'veriland-interop-bin-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const bin = path.join(dir, 'veriland-server');
    await run('go', ['build', '-o', bin, './examples/server'], { cwd: repoRoot, timeout: buildTimeoutMs });
    return bin;
  })();
  return builtBinary;
}

/** The names of the command-line flags the binary accepts (from its -h usage), without the dash. */
export async function serverFlags(bin) {
  const usage = await new Promise((resolve) => {
    execFile(bin, ['-h'], { maxBuffer: 4 << 20, timeout: 30_000 }, (_err, stdout, stderr) => resolve(`${stdout}\n${stderr}`));
  });
  return new Set([...usage.matchAll(/^\s+-([A-Za-z0-9][\w.-]*)/gm)].map((m) => m[1]));
}

async function spawnServer(bin, data, port, origin, logPath, extraArgs = [], extraEnv = {}, waitMs = startTimeoutMs) {
  const log = createWriteStream(logPath, { flags: 'a' });
  const child = spawn(bin, [
    '-data', data,
    '-addr', `127.0.0.1:${port}`,
    '-public-origin', origin,
    '-rate-limit', 'off',
    ...extraArgs,
  ], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...extraEnv } }); // stdout: only the first-run admin token
  let stderr = '';
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not log "listening on" within ${waitMs} ms:\n${stderr}`));
    }, waitMs);
    child.stderr.on('data', (chunk) => {
      log.write(chunk);
      if (stderr.length < 64 << 10) stderr += chunk;
      if (stderr.includes('listening on http://')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (code ${code}, signal ${signal}) before listening:\n${stderr}`));
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
  try {
    await ready;
  } catch (err) {
    log.end();
    throw err;
  }
  child.removeAllListeners('exit');
  child.stderr.removeAllListeners('data');
  child.stderr.pipe(log, { end: false });
  // Should this process end without stop() (an uncaught error), take the server along.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => {
    process.removeListener('exit', killOnExit);
    log.end();
  });
  return child;
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
  await exited;
  clearTimeout(timer);
}

async function mint(bin, data, role, env, acct) {
  const args = ['-data', data, '-mint-token', '-role', role, '-env', env];
  if (acct) args.push('-acct', acct);
  const out = await run(bin, args, { timeout: 30_000 });
  return out.trim();
}

/** The last lines of the server's log, for failure messages. */
export async function serverLogTail(srv, lines = 40) {
  try {
    const text = await readFile(srv.logPath, 'utf8');
    return text.split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * A JSON client for the server: call(method, path, {body, token, headers}) →
 * {status, body, headers}. body undefined sends no body and no Content-Type.
 */
export function client(origin) {
  return async function call(method, urlPath, { body, token, headers = {} } = {}) {
    const h = { Accept: 'application/json', ...headers };
    if (token) h.Authorization = `Bearer ${token}`;
    const init = { method, headers: h };
    if (body !== undefined) {
      h['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(origin + urlPath, init);
    const text = await res.text();
    let parsed;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, headers: res.headers, text };
  };
}
