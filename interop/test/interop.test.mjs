// Interop: the reference server's consent typed data, attestations and Sign-In with
// Ethereum, exercised with the wallet libraries clients actually use (ethers v6, viem,
// MetaMask's @metamask/eth-sig-util), exactly as served and as seed 001 describes.
//
// Run: cd interop && npm ci && npm test   (see README.md)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ethers } from 'ethers';
import { getAddress, recoverTypedDataAddress, verifyTypedData as viemVerifyTypedData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import {
  SignTypedDataVersion,
  recoverTypedSignature,
  signTypedData as ethSigUtilSignTypedData,
} from '@metamask/eth-sig-util';
import canonicalize from 'canonicalize';

import { client, serverLogTail, startServer } from '../lib/server.mjs';

const interopDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const libraries = ['ethers', 'viem', '@metamask/eth-sig-util', 'canonicalize'];
const versions = libraries.map((name) => {
  const pkg = JSON.parse(readFileSync(path.join(interopDir, 'node_modules', name, 'package.json'), 'utf8'));
  return `${name}@${pkg.version}`;
});
console.log(`interop: node ${process.version}; ${versions.join(', ')}`);

/** The order n of secp256k1's group: a signature (r, s) has the malleable twin (r, n - s). */
const secp256k1N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const testTimeout = { timeout: 60_000 };

let srv;
let call;
let verifierToken;
let issuer;
const holder = {};

/** Fails with the response body and the tail of the server log when the status differs. */
async function expectStatus(res, want, what) {
  const wanted = Array.isArray(want) ? want : [want];
  if (!wanted.includes(res.status)) {
    assert.fail(`${what}: status ${res.status}, want ${wanted.join(' or ')}\nbody: ${res.text}\n` +
      `server log (tail):\n${await serverLogTail(srv, 15)}`);
  }
}

/** keccak256 of the concatenated keccak256 of each item: EIP-712's encoding of a string[]. */
function disclosedScopeHash(items) {
  return ethers.keccak256(ethers.concat(items.map((item) => ethers.keccak256(ethers.toUtf8Bytes(item)))));
}

/** The served types without EIP712Domain (ethers derives the domain's type itself). */
function withoutDomainType(types) {
  const { EIP712Domain, ...rest } = types;
  return rest;
}

/** A new PENDING verification request about the holder, with seed 001's body. */
async function newRequest(reason) {
  const res = await call('POST', '/verify/request', {
    token: verifierToken,
    body: { subjectRef: holder.did, scope: ['identity', 'is_adult'], reason, mode: 'PROOF_ONLY' },
  });
  await expectStatus(res, 201, 'POST /verify/request');
  assert.equal(res.body.status, 'PENDING');
  assert.match(res.body.requestId, /^vrq_/);
  assert.equal(typeof res.body.message, 'string');
  return res.body.requestId;
}

/**
 * GET /consent/{id}: the consent context. Checks the typed data's shape and that every
 * served preset's disclosedScopeHash is the one computed here.
 */
async function consentContext(requestId) {
  const res = await call('GET', `/consent/${requestId}`);
  await expectStatus(res, 200, `GET /consent/${requestId}`);
  const ctx = res.body;
  assert.equal(ctx.requestId, requestId);
  assert.equal(ctx.status, 'PENDING');
  const td = ctx.typedData;
  assert.equal(td.primaryType, 'Consent');
  assert.equal(td.domain.name, 'Identity Consent');
  assert.equal(td.message.requestId, requestId);
  assert.equal(td.message.subject, holder.did);
  assert.equal(td.message.decision, undefined, 'decision is left for the holder');
  assert.equal(td.message.disclosedScopeHash, undefined, 'disclosedScopeHash is left for the holder');
  for (const preset of ctx.presets ?? []) {
    assert.equal(preset.disclosedScopeHash, disclosedScopeHash(preset.disclosedScope),
      `served preset ${preset.decision} ${JSON.stringify(preset.disclosedScope)}`);
  }
  return ctx;
}

/** The served message with the holder's two members filled in. */
function filledMessage(ctx, decision, disclosed) {
  return { ...ctx.typedData.message, decision, disclosedScopeHash: disclosedScopeHash(disclosed) };
}

function postDecision(requestId, decision, disclosedScope, holderSignature) {
  return call('POST', `/consent/${requestId}`, {
    body: { decision, disclosedScope, holderSignature, holderAddress: holder.address },
  });
}

/** Signs an APPROVED decision over the whole scope with ethers v6, exactly as served. */
async function ethersApproval(ctx) {
  const td = ctx.typedData;
  const message = filledMessage(ctx, 'APPROVED', ctx.scope);
  return holder.wallet.signTypedData(td.domain, withoutDomainType(td.types), message);
}

/** Checks a 201 approval and returns its attestation. */
async function expectApproved(res, requestId, what) {
  await expectStatus(res, 201, what);
  assert.equal(res.body.requestId, requestId);
  assert.equal(res.body.status, 'APPROVED');
  const att = res.body.attestation;
  assert.ok(att && typeof att === 'object', 'the 201 body carries the attestation');
  assert.match(att.id, /^att_/);
  assert.equal(att.kind, 'CONSENT');
  assert.match(att.signature, /^0x[0-9a-fA-F]{130}$/);
  return att;
}

before(async () => {
  srv = await startServer();
  call = client(srv.origin);
  console.log(`interop: server at ${srv.origin}`);

  const admin = await srv.mintToken('admin', 'SANDBOX', 'acct_interop');
  const key = await call('POST', '/v1/api-keys', {
    token: admin,
    body: { role: 'verifier', sub: 'verifier-interop', name: 'Interop Verifier' },
  });
  await expectStatus(key, 201, 'POST /v1/api-keys');
  verifierToken = key.body.data.attributes.token;
  assert.ok(verifierToken, 'the API key response carries the token');

  holder.privateKey = '0x' + randomBytes(32).toString('hex');
  holder.wallet = new ethers.Wallet(holder.privateKey);
  holder.account = privateKeyToAccount(holder.privateKey);
  holder.address = holder.wallet.address; // EIP-55 checksummed
  assert.equal(holder.account.address, holder.address);

  const issued = await call('POST', '/identity/issue', {
    headers: { 'Veriland-Environment': 'SANDBOX' },
    body: {
      subjectRef: `interop-${randomBytes(6).toString('hex')}`,
      walletAddress: holder.address,
      payload: { scenario: 'success' },
    },
  });
  await expectStatus(issued, [200, 201], 'POST /identity/issue');
  holder.did = issued.body.did;
  assert.match(holder.did, /^did:/);

  const iss = await call('GET', '/attestation/issuer');
  await expectStatus(iss, 200, 'GET /attestation/issuer');
  issuer = iss.body;
  assert.match(issuer.address, /^0x[0-9a-fA-F]{40}$/);
}, { timeout: 10 * 60_000 });

after(async () => {
  await srv?.stop();
});

// viemSign signs the served object unchanged (types still holding EIP712Domain), with
// the two members the holder chooses filled in.
function viemSign(ctx, decision, disclosed) {
  const td = ctx.typedData;
  return holder.account.signTypedData({
    domain: td.domain,
    types: td.types,
    primaryType: td.primaryType,
    message: filledMessage(ctx, decision, disclosed),
  });
}

test('ethers v6 signs the consent typed data as served: 201 with an attestation', testTimeout, async () => {
  const id = await newRequest('Interop: ethers v6');
  const ctx = await consentContext(id);
  // The served domain is used unchanged; only EIP712Domain leaves `types`, the ethers idiom.
  const signature = await ethersApproval(ctx);
  const res = await postDecision(id, 'APPROVED', ctx.scope, signature);
  await expectApproved(res, id, 'POST /consent (ethers)');
});

test('viem signs the consent typed data as served: 201 with an attestation', testTimeout, async () => {
  const id = await newRequest('Interop: viem');
  const ctx = await consentContext(id);
  const signature = await viemSign(ctx, 'APPROVED', ctx.scope);
  const res = await postDecision(id, 'APPROVED', ctx.scope, signature);
  await expectApproved(res, id, 'POST /consent (viem)');
});

test('@metamask/eth-sig-util V4 signs the consent typed data as served: 201', testTimeout, async () => {
  const id = await newRequest('Interop: eth-sig-util');
  const ctx = await consentContext(id);
  const data = { ...ctx.typedData, message: filledMessage(ctx, 'APPROVED', ctx.scope) };
  const signature = ethSigUtilSignTypedData({
    privateKey: Buffer.from(holder.privateKey.slice(2), 'hex'),
    data,
    version: SignTypedDataVersion.V4,
  });
  const res = await postDecision(id, 'APPROVED', ctx.scope, signature);
  await expectApproved(res, id, 'POST /consent (eth-sig-util)');
});

test('a REJECTED decision signed with viem: 200 with the decision', testTimeout, async () => {
  const id = await newRequest('Interop: rejection');
  const ctx = await consentContext(id);
  const signature = await viemSign(ctx, 'REJECTED', []);
  const res = await postDecision(id, 'REJECTED', [], signature);
  await expectStatus(res, 200, 'POST /consent (REJECTED)');
  assert.equal(res.body.requestId, id);
  assert.equal(res.body.status, 'REJECTED');
  assert.equal(res.body.decision, 'REJECTED');
});

test('an issued attestation verifies with ethers, viem and eth-sig-util; claimsHash is JCS', testTimeout, async (t) => {
  const id = await newRequest('Interop: attestation verification');
  const ctx = await consentContext(id);
  const res = await postDecision(id, 'APPROVED', ctx.scope, await ethersApproval(ctx));
  const att = await expectApproved(res, id, 'POST /consent (for the attestation)');
  const td = att.typedData;
  const want = getAddress(issuer.address);

  assert.equal(td.primaryType, 'Attestation');
  assert.deepEqual(td.domain, issuer.domain, 'the attestation domain is the issuer\'s');
  assert.equal(td.message.id, att.id);
  assert.equal(getAddress(att.issuer.address), want);

  // ethers v6
  const byEthers = ethers.verifyTypedData(td.domain, withoutDomainType(td.types), td.message, att.signature);
  assert.equal(byEthers, want, 'ethers.verifyTypedData');

  // viem
  const typed = { domain: td.domain, types: td.types, primaryType: td.primaryType, message: td.message };
  assert.equal(await viemVerifyTypedData({ ...typed, address: want, signature: att.signature }), true,
    'viem verifyTypedData');
  assert.equal(await recoverTypedDataAddress({ ...typed, signature: att.signature }), want,
    'viem recoverTypedDataAddress');

  // MetaMask
  const byMetaMask = recoverTypedSignature({ data: td, signature: att.signature, version: SignTypedDataVersion.V4 });
  assert.equal(getAddress(byMetaMask), want, 'eth-sig-util recoverTypedSignature V4');

  // claimsHash = keccak256(RFC 8785 canonical JSON of claims)
  const canonical = canonicalize(att.claims);
  t.diagnostic(`claims (RFC 8785): ${canonical}`);
  const claimsHash = ethers.keccak256(ethers.toUtf8Bytes(canonical));
  assert.equal(claimsHash, td.message.claimsHash.toLowerCase(), 'claimsHash');
});

test('Sign-In with Ethereum: a viem/siwe message signed by viem logs in', testTimeout, async () => {
  const nonceRes = await call('POST', '/auth/siwe/nonce'); // no body (SPEC S2.3)
  await expectStatus(nonceRes, [200, 201], 'POST /auth/siwe/nonce');
  const { nonce } = nonceRes.body;
  assert.equal(typeof nonce, 'string');

  const origin = new URL(srv.origin);
  const message = createSiweMessage({
    domain: origin.host,
    uri: srv.origin,
    chainId: 1,
    version: '1',
    address: holder.account.address,
    nonce,
    issuedAt: new Date(),
  });
  const signature = await holder.account.signMessage({ message });
  const login = await call('POST', '/auth/siwe', { body: { message, signature, environment: 'SANDBOX' } });
  await expectStatus(login, [200, 201], 'POST /auth/siwe');
  assert.equal(typeof login.body.token, 'string');
  assert.ok(!Number.isNaN(Date.parse(login.body.expiresAt)), 'expiresAt is a timestamp');
  assert.equal(login.body.did, holder.did, 'the token is for the identity bound to the wallet');

  const mine = await call('GET', '/liveness/attestations/me', { token: login.body.token });
  await expectStatus(mine, 200, 'GET /liveness/attestations/me with the SIWE token');
  assert.ok(Array.isArray(mine.body.items));
});

test('the high-s twin of a valid consent signature is refused; the original still works', testTimeout, async () => {
  const id = await newRequest('Interop: high-s twin');
  const ctx = await consentContext(id);
  const signature = await ethersApproval(ctx);

  const sig = ethers.Signature.from(signature); // ethers signs with low s
  const highS = secp256k1N - BigInt(sig.s);
  const twin = ethers.concat([sig.r, ethers.toBeHex(highS, 32), ethers.toBeHex(sig.v === 27 ? 28 : 27, 1)]);
  assert.equal(ethers.dataLength(twin), 65);
  assert.notEqual(twin, signature);
  // The twin is no garbage: recovery that does not check s (eth-sig-util's) finds the holder.
  const data = { ...ctx.typedData, message: filledMessage(ctx, 'APPROVED', ctx.scope) };
  assert.equal(getAddress(recoverTypedSignature({ data, signature: twin, version: SignTypedDataVersion.V4 })),
    holder.address, 'the twin recovers to the holder without a low-s check');

  const refused = await postDecision(id, 'APPROVED', ctx.scope, twin);
  await expectStatus(refused, 422, 'POST /consent with the high-s twin');
  assert.equal(refused.body.errors?.[0]?.code, 'invalid_signature');

  const state = await call('GET', `/verify/request/${id}`);
  await expectStatus(state, 200, `GET /verify/request/${id}`);
  assert.equal(state.body.status, 'PENDING', 'the refusal changed nothing');

  const res = await postDecision(id, 'APPROVED', ctx.scope, signature);
  await expectApproved(res, id, 'POST /consent with the original signature after the twin');
});
