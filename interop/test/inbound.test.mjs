// Interop: inbound provider events (SPEC S8, S15) signed as real providers sign them —
// the seed's way, HMAC-SHA256 of the raw body alone (node:crypto, GitHub-style
// "X-Hub-Signature-256: sha256=<hex>"), and the Standard Webhooks way with the npm
// standardwebhooks library — each finish a SANDBOX identity left PENDING_KYC.
//
// Run: cd interop && npm ci && npm test   (see README.md)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';

import { Webhook } from 'standardwebhooks';

import { client, serverLogTail, startServer } from '../lib/server.mjs';

const vendorSecret = `vendor-${randomBytes(16).toString('hex')}`;
const swSecret = `whsec_${randomBytes(32).toString('base64')}`;

let srv;
let call;

async function expectStatus(res, want, what) {
  if (res.status !== want) {
    assert.fail(`${what}: status ${res.status}, want ${want}\n${res.text}\n--- server log ---\n${await serverLogTail(srv)}`);
  }
}

before(async () => {
  // The spawned server reads its providers from the environment (-webhook-providers).
  process.env.VERILAND_WEBHOOK_PROVIDERS = JSON.stringify({
    vendor: {
      scheme: 'hmac-sha256', header: 'X-Hub-Signature-256', prefix: 'sha256=', encoding: 'hex',
      secrets: [vendorSecret], eventTypes: ['kyc.completed'], eventIdPath: 'id',
    },
    partner: { scheme: 'standard-webhooks', secrets: [swSecret], eventTypes: ['kyc.completed'] },
  });
  srv = await startServer();
  call = client(srv.origin);
}, { timeout: 10 * 60_000 });

after(async () => {
  await srv?.stop();
});

/** A SANDBOX identity whose KYC never answers: PENDING_KYC until an inbound event. */
async function pendingIdentity() {
  const issued = await call('POST', '/identity/issue', {
    headers: { 'Veriland-Environment': 'SANDBOX' },
    body: { subjectRef: `interop-inbound-${randomBytes(6).toString('hex')}`, payload: { scenario: 'timeout' } },
  });
  await expectStatus(issued, 201, 'POST /identity/issue');
  assert.equal(issued.body.status, 'PENDING_KYC');
  return issued.body.did;
}

async function statusOf(did) {
  const res = await call('GET', `/identity/${did}/status`);
  await expectStatus(res, 200, 'GET /identity/{did}/status');
  return res.body.status;
}

/** POSTs the exact bytes of body with the given headers. */
async function post(provider, body, headers) {
  const res = await fetch(`${srv.origin}/v1/webhooks/${provider}`, {
    method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers },
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
}

test('a body-only HMAC-SHA256 event (node:crypto, sha256=<hex>): 200, processed, then a duplicate', { timeout: 60_000 }, async () => {
  const did = await pendingIdentity();
  const body = JSON.stringify({
    id: `evt_${randomBytes(8).toString('hex')}`, type: 'kyc.completed', timestamp: new Date().toISOString(),
    data: { env: 'SANDBOX', did, outcome: 'APPROVED', claims: { is_adult: true } },
  });
  const sig = `sha256=${createHmac('sha256', vendorSecret).update(body).digest('hex')}`;
  let res = await post('vendor', body, { 'X-Hub-Signature-256': sig });
  await expectStatus(res, 200, 'POST /v1/webhooks/vendor');
  assert.deepEqual(res.body.data.attributes, { provider: 'vendor', type: 'kyc.completed', duplicate: false, processed: true });
  assert.equal(await statusOf(did), 'ACTIVE');

  res = await post('vendor', body, { 'X-Hub-Signature-256': sig });
  await expectStatus(res, 200, 'POST /v1/webhooks/vendor again');
  assert.equal(res.body.data.attributes.duplicate, true);

  const wrong = `sha256=${createHmac('sha256', 'not-the-vendor-secret').update(body).digest('hex')}`;
  res = await post('vendor', body, { 'X-Hub-Signature-256': wrong });
  await expectStatus(res, 401, 'wrong secret');
  res = await post('vendor', body, {});
  await expectStatus(res, 401, 'no signature');
  res = await post('nobody', body, { 'X-Hub-Signature-256': sig });
  await expectStatus(res, 404, 'unknown provider');
});

test('a Standard Webhooks event signed by the standardwebhooks library: 200, processed', { timeout: 60_000 }, async () => {
  const did = await pendingIdentity();
  const body = JSON.stringify({
    type: 'kyc.completed', timestamp: new Date().toISOString(),
    data: { env: 'SANDBOX', did, outcome: 'APPROVED', claims: { is_adult: true } },
  });
  const msgId = `msg_${randomBytes(8).toString('hex')}`;
  const now = new Date();
  const signature = new Webhook(swSecret).sign(msgId, now, body);
  const headers = { 'webhook-id': msgId, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature };
  let res = await post('partner', body, headers);
  await expectStatus(res, 200, 'POST /v1/webhooks/partner');
  assert.deepEqual(res.body.data.attributes, { provider: 'partner', type: 'kyc.completed', duplicate: false, processed: true });
  assert.equal(await statusOf(did), 'ACTIVE');

  res = await post('partner', body.replace('APPROVED', 'REJECTED'), headers);
  await expectStatus(res, 401, 'tampered body');
});
