// Interop: the assistant's routes as a web client calls them — JSON messages with
// fetch, and voice uploads with the platform's own FormData and Blob (the multipart
// encoder browsers and Node's undici use), not our Go code's.
//
// Run: cd interop && npm ci && npm test   (see README.md)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { client, serverLogTail, startServer } from '../lib/server.mjs';

const testTimeout = { timeout: 60_000 };

let srv;
let call;
let admin;
let parcel;

async function expectStatus(res, want, what) {
  const ok = Array.isArray(want) ? want.includes(res.status) : res.status === want;
  if (!ok) {
    assert.fail(`${what}: status ${res.status}, want ${want}\n${res.text}\n--- server log ---\n${await serverLogTail(srv)}`);
  }
}

/** A mono 16-bit PCM WAV of n samples of a 440 Hz tone at rate Hz. */
function wav(rate, n) {
  const buf = Buffer.alloc(44 + 2 * n);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + 2 * n, 4);
  buf.write('WAVEfmt ', 8);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(2 * n, 40);
  for (let i = 0; i < n; i++) buf.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + 2 * i);
  return buf;
}

/** POSTs a FormData to /v1/assistant/voice with fetch, as a browser client would. */
async function upload(form) {
  const res = await fetch(srv.origin + '/v1/assistant/voice', {
    method: 'POST', headers: { Authorization: `Bearer ${admin}` }, body: form,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

before(async () => {
  srv = await startServer();
  call = client(srv.origin);
  admin = await srv.mintToken('admin', 'SANDBOX', 'acct_interop_assistant');
  const created = await call('POST', '/v1/parcels', {
    token: admin,
    body: { owner: { fullName: 'Amina Bello', id_doc: 'NIN-12345678901' }, parcel: { gps: [9.0765, 7.3986], area_m2: 1200, city: 'Kano' }, notary: 'NOT-SBX-1' },
  });
  await expectStatus(created, 201, 'POST /v1/parcels');
  parcel = created.body.data.attributes;
  assert.equal(parcel.status, 'CERTIFIED');
}, { timeout: 10 * 60_000 });

after(async () => {
  await srv?.stop();
});

test('a question in Arabic is answered in Arabic, grounded in the parcel', testTimeout, async () => {
  const res = await call('POST', '/v1/assistant/messages', { token: admin, body: { text: `ما هي حالة قطعة الأرض ${parcel.id}؟` } });
  await expectStatus(res, 201, 'POST /v1/assistant/messages');
  const reply = res.body.data.attributes;
  assert.equal(res.body.data.type, 'assistant-messages');
  assert.equal(reply.language, 'ar');
  assert.equal(reply.intent, 'parcel_status');
  assert.ok(reply.text.includes(parcel.certificateHash), reply.text);
  assert.ok(reply.actions.some((a) => a.rel === 'verification_page' && a.href.endsWith(parcel.certificateHash)));
  assert.ok(reply.references.some((r) => r.type === 'parcel' && r.id === parcel.id));
});

test('a FormData voice upload is parsed and sniffed by content (the embedded PocketSphinx where installed, else 503 naming the way)', testTimeout, async () => {
  const form = new FormData();
  // A misleading name and type: the server reads the content.
  form.append('file', new Blob([wav(16000, 16000)], { type: 'audio/webm' }), 'clip.webm');
  form.append('language', 'en');
  const res = await upload(form);
  if (res.status === 503) {
    // A machine without PocketSphinx (never under CI, which installs it).
    assert.notEqual(process.env.CI, 'true', `CI installs PocketSphinx: ${res.text}`);
    assert.equal(res.body.errors[0].code, 'unavailable');
    assert.match(res.body.errors[0].detail, /-transcriber-url/);
    return;
  }
  // The default build transcribes with the embedded recogniser: the WAV was found
  // inside a "webm" upload, and its second of tone has no words.
  assert.equal(res.status, 201, res.text);
  const t = res.body.data.attributes;
  assert.equal(res.body.data.type, 'assistant-transcriptions');
  assert.equal(t.provider, 'pocketsphinx');
  assert.equal(t.format, 'wav');
  assert.equal(t.durationMs, 1000);
  assert.equal(t.language, 'en');
});

test('a FormData upload that is not audio is 415, and an unknown field is 400', testTimeout, async () => {
  const notAudio = new FormData();
  notAudio.append('file', new Blob(['hello, not a recording'], { type: 'audio/wav' }), 'x.wav');
  const res = await upload(notAudio);
  assert.equal(res.status, 415, res.text);
  assert.equal(res.body.errors[0].code, 'unsupported_media_type');

  const extra = new FormData();
  extra.append('file', new Blob([wav(8000, 800)]), 'a.wav');
  extra.append('speaker', 'me');
  const bad = await upload(extra);
  assert.equal(bad.status, 400, bad.text);
  assert.equal(bad.body.errors[0].code, 'unknown_field');
});
