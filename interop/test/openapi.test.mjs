// Interop: the OpenAPI document as an integrator uses it. Redocly CLI lints it with
// zero warnings (recommended-strict, redocly.yaml); openapi-typescript generates types
// from it that type-check (tsc --noEmit, strict) a small client (client/*.ts); that
// client then runs a whole consent flow against the reference server.
//
// Run: cd interop && npm ci && npm test   (see README.md)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import ts from 'typescript';

import { repoRoot, serverLogTail, startServer } from '../lib/server.mjs';

const interopDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const documentPath = path.join(repoRoot, 'httpserver', 'openapi.json');
const clientDir = path.join(interopDir, 'client');
const generatedTypes = path.join(clientDir, 'openapi.d.ts');
const buildDir = path.join(clientDir, '.build');

const tools = ['@redocly/cli', 'openapi-typescript', 'typescript'];
console.log('openapi: ' + tools.map((name) => {
  const pkg = JSON.parse(readFileSync(path.join(interopDir, 'node_modules', name, 'package.json'), 'utf8'));
  return `${name}@${pkg.version}`;
}).join(', '));

/** Runs a Node.js script of a tool; resolves {code, stdout, stderr}, never rejects on exit status. */
function node(script, args) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(interopDir, 'node_modules', script), ...args],
      { cwd: interopDir, maxBuffer: 64 << 20, timeout: 5 * 60_000, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' } },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') {
          reject(err);
          return;
        }
        resolve({ code: err ? err.code : 0, stdout, stderr });
      });
  });
}

// Types are generated once, before the tests that need them.
let generated;
function generateTypes() {
  generated ??= node('openapi-typescript/bin/cli.js', [documentPath, '-o', generatedTypes, '--default-non-nullable', 'false']);
  return generated;
}

test('Redocly CLI lints the document with zero errors and zero warnings', { timeout: 5 * 60_000 }, async () => {
  const out = await node('@redocly/cli/bin/cli.js',
    ['lint', documentPath, '--config', path.join(interopDir, 'redocly.yaml'), '--format', 'json']);
  const start = out.stdout.indexOf('{');
  assert.ok(start >= 0, `redocly printed no JSON report (exit ${out.code}):\n${out.stdout}\n${out.stderr}`);
  const report = JSON.parse(out.stdout.slice(start));
  const problems = (report.problems ?? []).map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
  assert.deepEqual(problems, [], 'lint problems');
  assert.equal(report.totals.errors, 0);
  assert.equal(report.totals.warnings, 0);
  assert.equal(out.code, 0, out.stderr);
});

test('openapi-typescript types type-check the TS client (tsc --noEmit, strict)', { timeout: 5 * 60_000 }, async () => {
  const gen = await generateTypes();
  assert.equal(gen.code, 0, `openapi-typescript failed:\n${gen.stdout}\n${gen.stderr}`);
  const types = await readFile(generatedTypes, 'utf8');
  for (const name of ['ConsentTypedData', 'AttestationTypedData', 'ErrorMeta', 'ErrorCode', 'LivenessClaims', 'ChipBindingClaims', 'VerificationEvent']) {
    assert.match(types, new RegExp(`\\b${name}: `), `schema ${name} in the generated types`);
  }
  assert.match(types, /export interface webhooks \{/, 'the webhooks section');
  assert.match(types, /"X-Request-Id": components\["headers"\]\["X-Request-Id"\]/, 'the X-Request-Id header');
  const tsc = await node('typescript/bin/tsc', ['-p', path.join(interopDir, 'tsconfig.json'), '--pretty', 'false']);
  assert.equal(tsc.code, 0, `tsc --noEmit:\n${tsc.stdout}\n${tsc.stderr}`);
});

describeServer();

function describeServer() {
  let srv;
  before(async () => {
    srv = await startServer();
  }, { timeout: 10 * 60_000 });
  after(async () => {
    await srv?.stop();
  });

  test('the TS client runs a whole consent flow against the reference server', { timeout: 5 * 60_000 }, async () => {
    const gen = await generateTypes();
    assert.equal(gen.code, 0, gen.stderr);
    // Type annotations only: strip them (the check is the test above) and run the JavaScript.
    const source = await readFile(path.join(clientDir, 'veriland-client.ts'), 'utf8');
    const js = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: 'veriland-client.ts',
    }).outputText;
    await mkdir(buildDir, { recursive: true });
    const built = path.join(buildDir, 'veriland-client.mjs');
    await writeFile(built, js);
    const { consentFlow } = await import(pathToFileURL(built).href);

    const admin = await srv.mintToken('admin', 'SANDBOX', 'acct_interop_openapi');
    let report;
    try {
      report = await consentFlow(srv.origin, admin);
    } catch (err) {
      assert.fail(`${err.stack}\n--- server log ---\n${await serverLogTail(srv)}`);
    }
    assert.match(report.requestId, /^vrq_/);
    assert.equal(report.replayed, 'true', 'the second POST with the same Idempotency-Key is replayed');
    assert.ok(report.sameRequestReplayed);
    assert.equal(report.decision.status, 'APPROVED');
    assert.equal(report.decision.attestation.kind, 'CONSENT');
    assert.equal(report.consentClaims.requestId, report.requestId);
    assert.equal(report.attestationStatus, 'VALID');
    assert.equal(report.recoveredIssuer.toLowerCase(), report.issuerAddress.toLowerCase());
    assert.deepEqual({ status: report.error.status, code: report.error.code }, { status: 404, code: 'not_found' });
    assert.equal(report.error.id, report.error.requestIdHeader, 'errors[0].id is the X-Request-Id header');
    // The interop server runs with -rate-limit off: no policy header then.
    assert.equal(report.rateLimitPolicy, null);
  });
}
