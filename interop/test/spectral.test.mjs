// Interop: Spectral with the OWASP API Security ruleset (.spectral-owasp.yaml) on the
// OpenAPI document. Every request and response string states maxLength (or enum or
// const), every array maxItems, every integer minimum, maximum and format: the test
// fails on any owasp:api4 string-limit, array-limit, integer-limit or integer-format
// finding. Whole-document bodies (text/html pages, the application/pdf certificate,
// the docs' text/javascript and /metrics' text/plain) are exempt: they are not
// strings a client sends or parses. Counts of the other OWASP rules are printed.
// httpserver/openapi_bounds_test.go checks that the server refuses a value one past
// each bound.
//
// Run: cd interop && npm ci && node --test test/spectral.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { repoRoot } from '../lib/server.mjs';

const interopDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const documentPath = path.join(repoRoot, 'httpserver', 'openapi.json');
const ruleset = path.join(interopDir, '.spectral-owasp.yaml');

const tools = ['@stoplight/spectral-cli', '@stoplight/spectral-owasp-ruleset'];
console.log('spectral: ' + tools.map((name) => {
  const pkg = JSON.parse(readFileSync(path.join(interopDir, 'node_modules', name, 'package.json'), 'utf8'));
  return `${name}@${pkg.version}`;
}).join(', '));

// The rules that must find nothing (2019 and 2023 editions of the ruleset's names).
const bounded = /^owasp:api4:(2019|2023)-(string-limit|array-limit|integer-limit|integer-format)$/;
// Whole-document bodies, exempt from string-limit.
const wholeDocument = /^paths\/.*\/responses\/[^/]+\/content\/(text\/html|text\/plain|text\/javascript|application\/pdf)\/schema$/;

function spectral() {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(interopDir, 'node_modules', '@stoplight/spectral-cli/dist/index.js'),
      'lint', documentPath, '--ruleset', ruleset, '--format', 'json', '--quiet'],
    { cwd: interopDir, maxBuffer: 64 << 20, timeout: 5 * 60_000, env: { ...process.env, NO_COLOR: '1' } },
    (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') {
        reject(err);
        return;
      }
      resolve({ code: err ? err.code : 0, stdout, stderr });
    });
  });
}

test('Spectral OWASP: no string, array or integer without bounds', { timeout: 5 * 60_000 }, async (t) => {
  const out = await spectral();
  const start = out.stdout.indexOf('[');
  assert.ok(start >= 0, `spectral printed no JSON report (exit ${out.code}):\n${out.stdout}\n${out.stderr}`);
  const findings = JSON.parse(out.stdout.slice(start));
  assert.ok(Array.isArray(findings), 'a JSON array of findings');

  const counts = new Map();
  const failures = [];
  const exempt = [];
  for (const f of findings) {
    counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
    if (!bounded.test(f.code)) continue;
    const pointer = f.path.join('/');
    if (f.code.endsWith('string-limit') && wholeDocument.test(pointer)) {
      exempt.push(pointer);
      continue;
    }
    failures.push(`${f.code}: ${f.message} at ${pointer}`);
  }
  for (const [code, n] of [...counts].sort()) t.diagnostic(`${code}: ${n}`);
  t.diagnostic(`whole-document bodies exempt from string-limit: ${exempt.length}`);
  assert.deepEqual(failures, [], 'unbounded strings, arrays or integers');
});
