// Interop: owner-signed land transfers (SPEC S13) with the wallet libraries clients
// actually use. A registry clerk asks for the transfer of a certified parcel whose owner
// holds a wallet; the owner signs the served TransferConsent — unchanged, with only the
// decision added — with ethers v6, viem or MetaMask's @metamask/eth-sig-util; the server
// re-verifies it and the named notary completes the transfer.
//
// Run: cd interop && npm ci && npm test   (see README.md)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

import { ethers } from 'ethers';
import { getAddress, recoverTypedDataAddress, verifyTypedData as viemVerifyTypedData } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  SignTypedDataVersion,
  recoverTypedSignature,
  signTypedData as ethSigUtilSignTypedData,
} from '@metamask/eth-sig-util';

import { client, serverLogTail, startServer } from '../lib/server.mjs';

/** The order n of secp256k1's group: a signature (r, s) has the malleable twin (r, n - s). */
const secp256k1N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const testTimeout = { timeout: 60_000 };

/** A named notary that is not one of the sandbox's instant notaries (NOT-SBX-*). */
const notaryId = 'NOT-ABJ-0042';

/** SPEC S13: the TransferConsent members, in order. */
const transferConsentType = [
  { name: 'transferId', type: 'string' },
  { name: 'parcelId', type: 'string' },
  { name: 'fromVersion', type: 'uint64' },
  { name: 'newOwnerIdDocHash', type: 'bytes32' },
  { name: 'newOwnerWallet', type: 'address' },
  { name: 'notary', type: 'string' },
  { name: 'decision', type: 'string' },
  { name: 'nonce', type: 'bytes32' },
  { name: 'deadline', type: 'uint64' },
];

let srv;
let call;
let admin; // admin token of the account
let clerk; // a registry clerk: a verifier API key of the account
let notary; // the notary's API key, sub NOT-ABJ-0042
let issuer;

/** Fails with the response body and the tail of the server log when the status differs. */
async function expectStatus(res, want, what) {
  const wanted = Array.isArray(want) ? want : [want];
  if (!wanted.includes(res.status)) {
    assert.fail(`${what}: status ${res.status}, want ${wanted.join(' or ')}\nbody: ${res.text}\n` +
      `server log (tail):\n${await serverLogTail(srv, 15)}`);
  }
}

/** Checks an SPEC error document: status, code and, when given, meta.reason. */
async function expectError(res, status, code, what, reason) {
  await expectStatus(res, status, what);
  const e = res.body?.errors?.[0];
  assert.ok(e, `${what}: an error document\n${res.text}`);
  assert.equal(e.code, code, `${what}: error code\n${res.text}`);
  if (reason) assert.equal(e.meta?.reason, reason, `${what}: meta.reason\n${res.text}`);
  return e;
}

/** The served types without EIP712Domain (ethers derives the domain's type itself). */
function withoutDomainType(types) {
  const { EIP712Domain, ...rest } = types;
  return rest;
}

/** An owner wallet: its key, an ethers Wallet and a viem local account of it. */
function newOwner(privateKey = '0x' + randomBytes(32).toString('hex')) {
  const wallet = new ethers.Wallet(privateKey);
  const account = privateKeyToAccount(privateKey);
  assert.equal(account.address, wallet.address);
  return { privateKey, wallet, account, address: wallet.address }; // EIP-55 checksummed
}

function randomDoc() {
  return 'A' + randomBytes(5).toString('hex').toUpperCase();
}

/**
 * A parcel created by the clerk with an owner wallet, naming the notary, and certified
 * by that notary (never the creator). Returns {id, ownerName, ownerDoc}.
 */
async function certifiedParcel(owner, city = 'Abuja') {
  const ownerName = `Interop Owner ${randomBytes(3).toString('hex')}`;
  const ownerDoc = randomDoc();
  const created = await call('POST', '/v1/parcels', {
    token: clerk,
    body: {
      owner: { fullName: ownerName, id_doc: ownerDoc, walletAddress: owner.address },
      parcel: { gps: [9.0765, 7.3986], area_m2: 1200, city },
      notary: notaryId,
    },
  });
  await expectStatus(created, 201, 'POST /v1/parcels (clerk)');
  const p = created.body.data.attributes;
  assert.equal(p.status, 'PENDING_NOTARY');
  assert.equal(getAddress(p.owner.walletAddress), owner.address);
  assert.equal(p.owner.binding, 'NONE', 'the wallet is not bound before the notary certifies');

  const certified = await call('POST', `/v1/parcels/${p.id}/certify`, { token: notary });
  await expectStatus(certified, 200, 'POST /v1/parcels/{id}/certify (the named notary)');
  const c = certified.body.data.attributes;
  assert.equal(c.status, 'CERTIFIED');
  assert.equal(getAddress(c.owner.walletAddress), owner.address);
  assert.equal(c.owner.binding, 'NOTARY_VERIFIED');
  return { id: p.id, ownerName, ownerDoc };
}

/**
 * The clerk asks for the transfer of parcel to a new owner with a wallet: 202
 * PENDING_OWNER with ownerConsent {url, typedData, deadline}. Checks the typed data's
 * shape, and that the owner's page, read as JSON:API, serves the same typed data and
 * no name. Returns {transfer, td, buyer}.
 */
async function requestTransfer(parcel, owner) {
  const buyer = { fullName: `Interop Buyer ${randomBytes(3).toString('hex')}`, id_doc: randomDoc(), ...newOwner() };
  const res = await call('POST', `/v1/parcels/${parcel.id}/transfer`, {
    token: clerk,
    body: { newOwner: { fullName: buyer.fullName, id_doc: buyer.id_doc, walletAddress: buyer.address }, notary: notaryId },
  });
  await expectStatus(res, 202, 'POST /v1/parcels/{id}/transfer (clerk)');
  const transfer = res.body.data.attributes;
  assert.match(transfer.id, /^trf_/);
  assert.equal(transfer.status, 'PENDING_OWNER');
  assert.equal(transfer.parcelId, parcel.id);
  assert.equal(transfer.notary, notaryId);
  const oc = transfer.ownerConsent;
  assert.equal(oc.method, 'OWNER_SIGNATURE');
  assert.equal(oc.url, `${srv.origin}/v1/transfers/${transfer.id}/owner-consent`);
  assert.equal(getAddress(oc.ownerWallet), owner.address);
  assert.ok(!Number.isNaN(Date.parse(oc.deadline)), 'ownerConsent.deadline is a timestamp');

  const td = oc.typedData;
  assert.equal(td.primaryType, 'TransferConsent');
  assert.equal(td.domain.name, 'Land Transfer');
  assert.equal(td.domain.version, '1');
  assert.equal(typeof td.domain.chainId, 'number');
  assert.deepEqual(td.types.TransferConsent, transferConsentType);
  assert.ok(Array.isArray(td.types.EIP712Domain), 'types carry EIP712Domain (eth_signTypedData_v4)');
  const m = td.message;
  assert.equal(m.decision, undefined, 'decision is left for the owner');
  assert.equal(m.transferId, transfer.id);
  assert.equal(m.parcelId, parcel.id);
  assert.equal(BigInt(m.fromVersion), BigInt(transfer.fromVersion));
  assert.equal(m.notary, notaryId);
  assert.equal(getAddress(m.newOwnerWallet), buyer.address);
  assert.equal(m.newOwnerIdDocHash.toLowerCase(), transfer.newOwner.idDocHash.toLowerCase());
  assert.match(m.nonce, /^0x[0-9a-fA-F]{64}$/);
  assert.equal(BigInt(m.deadline), BigInt(Date.parse(oc.deadline) / 1000), 'message.deadline is ownerConsent.deadline');

  // The owner's page as JSON:API (public, no token): the same typed data, no name.
  const page = await fetch(oc.url, { headers: { Accept: 'application/vnd.api+json' } });
  const text = await page.text();
  assert.equal(page.status, 200, `GET ${oc.url}: ${text}`);
  assert.match(page.headers.get('content-type') ?? '', /^application\/vnd\.api\+json/);
  const doc = JSON.parse(text);
  assert.equal(doc.data.type, 'owner-consents');
  assert.equal(doc.data.id, transfer.id);
  const ctx = doc.data.attributes;
  assert.equal(ctx.status, 'PENDING_OWNER');
  assert.equal(ctx.environment, 'SANDBOX');
  assert.equal(ctx.parcel.id, parcel.id);
  assert.equal(ctx.notary, notaryId);
  assert.equal(getAddress(ctx.ownerWallet), owner.address);
  assert.equal(ctx.newOwner.idDocLast4, buyer.id_doc.slice(-4));
  assert.equal(getAddress(ctx.newOwner.walletAddress), buyer.address);
  assert.equal(ctx.ownerDecision, null);
  assert.deepEqual(ctx.typedData, td, 'the owner page serves the typed data of the transfer');
  for (const secret of [parcel.ownerName, parcel.ownerDoc, buyer.fullName, buyer.id_doc]) {
    assert.ok(!text.includes(secret), `the owner page does not show ${secret}`);
  }
  return { transfer, td, buyer };
}

/** The served message with the owner's decision added: the only change a client makes. */
function decided(td, decision) {
  return { ...td.message, decision };
}

const signers = {
  // ethers v6: the served domain unchanged; only EIP712Domain leaves `types`, the ethers idiom.
  ethers: (owner, td, decision) => owner.wallet.signTypedData(td.domain, withoutDomainType(td.types), decided(td, decision)),
  // viem: the served object unchanged (types still holding EIP712Domain).
  viem: (owner, td, decision) => owner.account.signTypedData({
    domain: td.domain, types: td.types, primaryType: td.primaryType, message: decided(td, decision),
  }),
  // MetaMask: eth_signTypedData_v4 of the served object.
  'eth-sig-util': async (owner, td, decision) => ethSigUtilSignTypedData({
    privateKey: Buffer.from(owner.privateKey.slice(2), 'hex'),
    data: { ...td, message: decided(td, decision) },
    version: SignTypedDataVersion.V4,
  }),
};

function postOwnerDecision(transferId, decision, ownerSignature, ownerAddress) {
  return call('POST', `/v1/transfers/${transferId}/owner-consent`, { body: { decision, ownerSignature, ownerAddress } });
}

/** GET /v1/transfers/{id} by the clerk: the transfer's attributes. */
async function transferState(id) {
  const res = await call('GET', `/v1/transfers/${id}`, { token: clerk });
  await expectStatus(res, 200, `GET /v1/transfers/${id}`);
  return res.body.data.attributes;
}

/** Recovers the signer of the served typed data + decision with viem and ethers. */
async function checkRecovery(td, decision, signature, want) {
  const message = decided(td, decision);
  assert.equal(await recoverTypedDataAddress({
    domain: td.domain, types: td.types, primaryType: td.primaryType, message, signature,
  }), want, 'viem recoverTypedDataAddress');
  assert.equal(await viemVerifyTypedData({
    address: want, domain: td.domain, types: td.types, primaryType: td.primaryType, message, signature,
  }), true, 'viem verifyTypedData');
  assert.equal(ethers.verifyTypedData(td.domain, withoutDomainType(td.types), message, signature), want,
    'ethers verifyTypedData');
}

before(async () => {
  srv = await startServer();
  call = client(srv.origin);
  console.log(`interop (transfers): server at ${srv.origin}`);

  admin = await srv.mintToken('admin', 'SANDBOX', 'acct_interop_transfer');
  const mkKey = async (role, sub, name) => {
    const key = await call('POST', '/v1/api-keys', { token: admin, body: { role, sub, name } });
    await expectStatus(key, 201, `POST /v1/api-keys (${role} ${sub})`);
    const token = key.body.data.attributes.token;
    assert.ok(token, 'the API key response carries the token');
    return token;
  };
  clerk = await mkKey('verifier', 'clerk-interop', 'Interop Registry Clerk');
  notary = await mkKey('notary', notaryId, 'Interop Notary Abuja');

  const iss = await call('GET', '/attestation/issuer');
  await expectStatus(iss, 200, 'GET /attestation/issuer');
  issuer = iss.body;
  assert.match(issuer.address, /^0x[0-9a-fA-F]{40}$/);
}, { timeout: 10 * 60_000 });

after(async () => {
  await srv?.stop();
});

for (const [lib, sign] of Object.entries(signers)) {
  test(`${lib} signs the served TransferConsent: PENDING_OWNER → PENDING_NOTARY → COMPLETED`, testTimeout, async () => {
    const owner = lib === 'viem' ? newOwner(generatePrivateKey()) : newOwner(ethers.Wallet.createRandom().privateKey);
    const parcel = await certifiedParcel(owner);
    const { transfer, td, buyer } = await requestTransfer(parcel, owner);

    // The notary cannot decide before the owner.
    await expectError(await call('POST', `/v1/transfers/${transfer.id}/approve`, { token: notary }),
      409, 'invalid_state', 'approve while PENDING_OWNER');

    const signature = await sign(owner, td, 'APPROVED');
    assert.match(signature, /^0x[0-9a-fA-F]{130}$/);
    await checkRecovery(td, 'APPROVED', signature, owner.address);

    const res = await postOwnerDecision(transfer.id, 'APPROVED', signature, owner.address);
    await expectStatus(res, 200, `POST owner-consent (${lib})`);
    assert.equal(res.body.data.type, 'transfers');
    const t = res.body.data.attributes;
    assert.equal(t.id, transfer.id);
    assert.equal(t.status, 'PENDING_NOTARY');
    assert.equal(t.ownerConsent.decision, 'APPROVED');
    assert.equal(getAddress(t.ownerConsent.signer), owner.address);
    assert.equal(t.ownerConsent.signature.toLowerCase(), signature.toLowerCase());

    // The owner's page now shows the decision; the same signature again is 409.
    const ctx = await call('GET', `/v1/transfers/${transfer.id}/owner-consent`, { headers: { Accept: 'application/vnd.api+json' } });
    await expectStatus(ctx, 200, 'GET owner-consent after the decision');
    assert.equal(ctx.body.data.attributes.status, 'PENDING_NOTARY');
    assert.equal(ctx.body.data.attributes.ownerDecision.decision, 'APPROVED');
    await expectError(await postOwnerDecision(transfer.id, 'APPROVED', signature, owner.address),
      409, 'invalid_state', 'a second owner decision');

    const done = await call('POST', `/v1/transfers/${transfer.id}/approve`, { token: notary });
    await expectStatus(done, 200, 'POST /v1/transfers/{id}/approve (the named notary)');
    assert.equal(done.body.data.attributes.status, 'COMPLETED');
    assert.equal(done.body.data.attributes.toVersion, transfer.fromVersion + 1);

    const after = await call('GET', `/v1/parcels/${parcel.id}`, { token: clerk });
    await expectStatus(after, 200, 'GET /v1/parcels/{id} after the transfer');
    const p = after.body.data.attributes;
    assert.equal(getAddress(p.owner.walletAddress), buyer.address, 'the new owner\'s wallet is the owner\'s now');
    assert.equal(p.owner.binding, 'NOTARY_VERIFIED');

    // The history says how the previous owner consented, and names wallets, not people.
    const hist = await call('GET', `/v1/parcels/${parcel.id}/history`, { token: clerk });
    await expectStatus(hist, 200, 'GET /v1/parcels/{id}/history');
    const versions = hist.body.data.map((r) => r.attributes);
    const v1 = versions.find((v) => v.version === transfer.fromVersion);
    const v2 = versions.find((v) => v.version === transfer.fromVersion + 1);
    assert.equal(v1.status, 'SUPERSEDED');
    assert.equal(v1.closedBy, transfer.id);
    assert.equal(getAddress(v1.ownerWallet), owner.address);
    assert.equal(v2.status, 'CURRENT');
    assert.equal(v2.transferId, transfer.id);
    assert.equal(v2.ownerConsent, 'OWNER_SIGNATURE');
    assert.equal(getAddress(v2.ownerWallet), buyer.address);
    assert.ok(!hist.text.includes(parcel.ownerName) && !hist.text.includes(buyer.fullName), 'no name in the history');
  });
}

test('a REJECTED decision signed with viem: REJECTED, rejectedBy OWNER', testTimeout, async () => {
  const owner = newOwner(generatePrivateKey());
  const parcel = await certifiedParcel(owner);
  const { transfer, td } = await requestTransfer(parcel, owner);
  // The same URL, asked for HTML, is the hosted owner page (no name on it either).
  const page = await fetch(transfer.ownerConsent.url, { headers: { Accept: 'text/html' } });
  const html = await page.text();
  assert.equal(page.status, 200, `GET owner-consent as HTML: ${html.slice(0, 300)}`);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.ok(!html.includes(parcel.ownerName), 'no owner name on the hosted page');

  const signature = await signers.viem(owner, td, 'REJECTED');
  await checkRecovery(td, 'REJECTED', signature, owner.address);

  const res = await postOwnerDecision(transfer.id, 'REJECTED', signature, owner.address);
  await expectStatus(res, 200, 'POST owner-consent (REJECTED)');
  const t = res.body.data.attributes;
  assert.equal(t.status, 'REJECTED');
  assert.equal(t.rejectedBy, 'OWNER');
  assert.equal(t.ownerConsent.decision, 'REJECTED');
  await expectError(await call('POST', `/v1/transfers/${transfer.id}/approve`, { token: notary }),
    409, 'invalid_state', 'approve a transfer the owner refused');
  const p = await call('GET', `/v1/parcels/${parcel.id}`, { token: clerk });
  await expectStatus(p, 200, 'GET /v1/parcels/{id}');
  assert.equal(getAddress(p.body.data.attributes.owner.walletAddress), owner.address, 'the owner is unchanged');
});

test('signatures by another wallet, over another message or high-s: 422 invalid_signature', testTimeout, async () => {
  const owner = newOwner();
  const parcel = await certifiedParcel(owner);
  const { transfer, td } = await requestTransfer(parcel, owner);
  const stranger = newOwner();
  const refused = async (what, decision, signature, address = owner.address) => {
    const e = await expectError(await postOwnerDecision(transfer.id, decision, signature, address),
      422, 'invalid_signature', what);
    assert.equal((await transferState(transfer.id)).status, 'PENDING_OWNER', `${what}: nothing changed`);
    return e;
  };

  // Another wallet signs the exact served message: named as the owner, or as itself.
  const bystander = await signers.ethers(stranger, td, 'APPROVED');
  await refused('a signature by another wallet', 'APPROVED', bystander);
  await refused('another wallet naming itself', 'APPROVED', bystander, stranger.address);

  // The owner's own signatures over another message.
  await refused('signed APPROVED, posted REJECTED', 'REJECTED', await signers.ethers(owner, td, 'APPROVED'));
  const later = { ...td, message: { ...td.message, deadline: BigInt(td.message.deadline) + 86_400n } };
  await refused('a changed deadline', 'APPROVED', await signers.viem(owner, later, 'APPROVED'));
  const otherNotary = { ...td, message: { ...td.message, notary: 'NOT-LAG-7' } };
  await refused('another notary', 'APPROVED', await signers['eth-sig-util'](owner, otherNotary, 'APPROVED'));
  const otherChain = { ...td, domain: { ...td.domain, chainId: td.domain.chainId + 1 } };
  await refused('another chainId', 'APPROVED', await signers.ethers(owner, otherChain, 'APPROVED'));

  // The high-s twin of a valid signature: it recovers to the owner without a low-s check.
  const signature = await signers.ethers(owner, td, 'APPROVED');
  const sig = ethers.Signature.from(signature); // ethers signs with low s
  const twin = ethers.concat([sig.r, ethers.toBeHex(secp256k1N - BigInt(sig.s), 32), ethers.toBeHex(sig.v === 27 ? 28 : 27, 1)]);
  assert.equal(ethers.dataLength(twin), 65);
  assert.equal(getAddress(recoverTypedSignature({
    data: { ...td, message: decided(td, 'APPROVED') }, signature: twin, version: SignTypedDataVersion.V4,
  })), owner.address, 'the twin recovers to the owner without a low-s check');
  await refused('the high-s twin', 'APPROVED', twin);

  // After all the refusals the owner's real signature is accepted.
  const res = await postOwnerDecision(transfer.id, 'APPROVED', signature, owner.address);
  await expectStatus(res, 200, 'POST owner-consent with the real signature after the refusals');
  assert.equal(res.body.data.attributes.status, 'PENDING_NOTARY');
});

test('separation of duties: the creator never certifies, a notary never requests, the requester never approves', testTimeout, async () => {
  const owner = newOwner();
  const made = await call('POST', '/v1/parcels', {
    token: admin,
    body: {
      owner: { fullName: 'Interop Owner SoD', id_doc: randomDoc(), walletAddress: owner.address },
      parcel: { gps: [9.0765, 7.3986], area_m2: 800, city: 'Abuja' },
      notary: notaryId,
    },
  });
  await expectStatus(made, 201, 'POST /v1/parcels (admin)');
  const id = made.body.data.attributes.id;
  await expectError(await call('POST', `/v1/parcels/${id}/certify`, { token: admin }),
    403, 'forbidden', 'the creating admin certifies', 'separation_of_duties');
  await expectStatus(await call('POST', `/v1/parcels/${id}/certify`, { token: notary }), 200, 'the notary certifies');

  const body = { newOwner: { fullName: 'Interop Buyer SoD', id_doc: randomDoc() }, notary: notaryId };
  await expectError(await call('POST', `/v1/parcels/${id}/transfer`, { token: notary, body }),
    403, 'forbidden', 'a notary requests a transfer');

  const tr = await call('POST', `/v1/parcels/${id}/transfer`, { token: admin, body });
  await expectStatus(tr, 202, 'POST /v1/parcels/{id}/transfer (admin)');
  const t = tr.body.data.attributes;
  assert.equal(t.status, 'PENDING_OWNER');
  const signature = await signers.ethers(owner, t.ownerConsent.typedData, 'APPROVED');
  await expectStatus(await postOwnerDecision(t.id, 'APPROVED', signature, owner.address), 200, 'owner approves');
  await expectError(await call('POST', `/v1/transfers/${t.id}/approve`, { token: admin }),
    403, 'forbidden', 'the requesting admin approves', 'separation_of_duties');
  const done = await call('POST', `/v1/transfers/${t.id}/approve`, { token: notary });
  await expectStatus(done, 200, 'the notary approves');
  assert.equal(done.body.data.attributes.status, 'COMPLETED');
});

test('the certificate typed data carries ownerWallet and verifies to the issuer (ethers, viem)', testTimeout, async () => {
  const owner = newOwner();
  const parcel = await certifiedParcel(owner, 'Kano');
  const res = await call('GET', `/v1/parcels/${parcel.id}/certificate`, { token: clerk });
  await expectStatus(res, 200, 'GET /v1/parcels/{id}/certificate');
  const cert = res.body.data.attributes;
  const td = cert.typedData;
  const want = getAddress(issuer.address);

  assert.equal(td.primaryType, 'ParcelCertificate');
  assert.equal(td.domain.name, 'Parcel Certificate');
  assert.deepEqual(td.types.ParcelCertificate.at(-1), { name: 'ownerWallet', type: 'address' });
  assert.equal(getAddress(td.message.ownerWallet), owner.address);
  assert.equal(td.message.parcelId, parcel.id);
  assert.equal(td.message.certificateHash.toLowerCase(), cert.hash.toLowerCase());

  assert.equal(ethers.verifyTypedData(td.domain, withoutDomainType(td.types), td.message, cert.signature), want,
    'ethers verifyTypedData');
  assert.equal(await recoverTypedDataAddress({
    domain: td.domain, types: td.types, primaryType: td.primaryType, message: td.message, signature: cert.signature,
  }), want, 'viem recoverTypedDataAddress');
  const byMetaMask = recoverTypedSignature({ data: td, signature: cert.signature, version: SignTypedDataVersion.V4 });
  assert.equal(getAddress(byMetaMask), want, 'eth-sig-util recoverTypedSignature V4');
  assert.ok(!res.text.includes(parcel.ownerDoc), 'no id_doc in the certificate');
});
