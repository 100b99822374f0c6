// Interop: a newcomer's first minutes in the sandbox, with a real wallet library — the
// seeded holder's throwaway key, as GET /v1/sandbox/scenarios shows it, signs the seeded
// pending verification request with ethers v6, and the server accepts it.
//
// Run: cd interop && npm ci && npm test   (see README.md)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { ethers } from 'ethers';

import { client, serverLogTail, startServer } from '../lib/server.mjs';

let srv;
let call;
let admin;

async function expectStatus(res, want, what) {
  if (res.status !== want) {
    assert.fail(`${what}: status ${res.status}, want ${want}\n${res.text}\n--- server log ---\n${await serverLogTail(srv)}`);
  }
}

before(async () => {
  srv = await startServer();
  call = client(srv.origin);
  admin = await srv.mintToken('admin', 'SANDBOX', 'acct_interop_sandbox');
}, { timeout: 10 * 60_000 });

after(async () => {
  await srv?.stop();
});

test('the seeded holder key signs the seeded pending request with ethers v6: 201', { timeout: 60_000 }, async () => {
  const sbx = await call('GET', '/v1/sandbox/scenarios', { token: admin });
  await expectStatus(sbx, 200, 'GET /v1/sandbox/scenarios');
  const { seeded, scenarios } = sbx.body.data.attributes;
  assert.ok(scenarios.length > 20, 'the scenario list');
  const wallet = new ethers.Wallet(seeded.holder.privateKey);
  assert.equal(wallet.address, seeded.holder.walletAddress);

  const requestId = seeded.verificationRequests.pending;
  const ctxRes = await call('GET', `/consent/${requestId}`);
  await expectStatus(ctxRes, 200, 'GET /consent/{id}');
  const ctx = ctxRes.body;
  assert.equal(ctx.typedData.message.subject, seeded.holder.did);
  const preset = ctx.presets.find((p) => p.decision === 'APPROVED');
  const types = { ...ctx.typedData.types };
  delete types.EIP712Domain;
  const message = { ...ctx.typedData.message, decision: 'APPROVED', disclosedScopeHash: preset.disclosedScopeHash };
  const signature = await wallet.signTypedData(ctx.typedData.domain, types, message);

  const res = await call('POST', `/consent/${requestId}`, {
    body: { holderAddress: wallet.address, decision: 'APPROVED', disclosedScope: preset.disclosedScope, holderSignature: signature },
  });
  await expectStatus(res, 201, 'POST /consent/{id}');
  assert.equal(res.body.status, 'APPROVED');
  assert.ok(res.body.attestation.id.startsWith('att_'));
});
