// A small typed client of the veriland server, written the way an integrator would
// write one from the OpenAPI document alone: every request body, response body and
// header it touches is typed by ./openapi.d.ts, which test/openapi.test.mjs generates
// with openapi-typescript from httpserver/openapi.json just before it type-checks this
// file (tsc --noEmit) and runs it against the reference server.

import { ethers } from 'ethers';

import type { components, paths } from './openapi.d.ts';

/** The document's component schemas. */
export type Schemas = components['schemas'];

type Method = 'get' | 'post' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Success = 200 | 201 | 202;

/** The JSON body of a response or request object, whichever JSON media type it uses. */
type JsonOf<C> = C extends { content: infer Content }
  ? Content extends { 'application/json': infer J }
    ? J
    : Content extends { 'application/vnd.api+json': infer V }
      ? V
      : never
  : never;

/** The request body of an operation (never when it takes none). */
export type RequestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

/** The body of an operation's documented success responses. */
export type SuccessBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R } ? { [S in keyof R & Success]: JsonOf<R[S]> }[keyof R & Success] : never;

/** The path parameters of an operation. */
export type PathParams<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { path: infer Q } } ? Q : Record<string, never>;

/** What a call answers: the typed body of a success, or the error document. */
export type Result<P extends keyof paths, M extends Method> =
  | { ok: true; status: number; body: SuccessBody<P, M>; requestId: string; headers: Headers }
  | { ok: false; status: number; error: Schemas['ErrorDocument']; requestId: string; headers: Headers };

/** Per-call options: a bearer token, an Idempotency-Key, extra headers. */
export interface CallOptions {
  token?: string;
  idempotencyKey?: string;
  environment?: Schemas['Environment'];
}

/** A typed client for one server origin. */
export class VerilandClient {
  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  /** Calls one documented operation with its typed path parameters and body. */
  async call<P extends keyof paths, M extends Method>(
    method: M,
    template: P,
    params: PathParams<P, M>,
    body: RequestBody<P, M> | undefined,
    opts: CallOptions = {},
  ): Promise<Result<P, M>> {
    let url = String(template);
    for (const [name, value] of Object.entries(params as Record<string, string>)) {
      url = url.replace(`{${name}}`, encodeURIComponent(value));
    }
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
    if (opts.environment) headers['Veriland-Environment'] = opts.environment;
    const init: RequestInit = { method: method.toUpperCase(), headers };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(this.origin + url, init);
    // components['headers']['X-Request-Id']: documented as present on every response.
    const requestId: components['headers']['X-Request-Id'] = res.headers.get('X-Request-Id') ?? '';
    const text = await res.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    if (res.ok) {
      return { ok: true, status: res.status, body: parsed as SuccessBody<P, M>, requestId, headers: res.headers };
    }
    return { ok: false, status: res.status, error: parsed as Schemas['ErrorDocument'], requestId, headers: res.headers };
  }
}

function must<T extends { ok: boolean }>(r: T, what: string): Extract<T, { ok: true }> {
  if (!r.ok) throw new Error(`${what}: ${JSON.stringify(r)}`);
  return r as Extract<T, { ok: true }>;
}

/** keccak256 of the concatenated keccak256 of each item: EIP-712's string[] encoding. */
export function disclosedScopeHash(items: readonly string[]): string {
  return ethers.keccak256(ethers.concat(items.map((item) => ethers.keccak256(ethers.toUtf8Bytes(item)))));
}

/** The served types without EIP712Domain, as ethers wants them. */
function ethersTypes(types: Schemas['EIP712Types']): Record<string, ethers.TypedDataField[]> {
  const { EIP712Domain: _domain, ...rest } = types;
  return rest as Record<string, ethers.TypedDataField[]>;
}

/** What consentFlow saw, for the test to check. */
export interface ConsentFlowReport {
  requestId: string;
  replayed: string | null;
  sameRequestReplayed: boolean;
  decision: Schemas['DecisionResult'];
  attestationStatus: Schemas['AttestationStatusView']['status'];
  issuerAddress: string;
  recoveredIssuer: string;
  consentClaims: Schemas['ConsentClaims'];
  error: { status: number; code: Schemas['ErrorCode']; id: string; requestIdHeader: string };
  rateLimitPolicy: string | null;
}

/**
 * The integrator's whole consent flow in SANDBOX: an admin creates a verifier API key,
 * a holder identity is issued for a fresh wallet, the verifier asks (with an
 * Idempotency-Key, sent twice), the holder reads the consent context and signs the
 * served typed data with ethers v6, the approval's CONSENT attestation is checked
 * against the issuer, and an unknown request answers a typed error document.
 */
export async function consentFlow(origin: string, adminToken: string): Promise<ConsentFlowReport> {
  const api = new VerilandClient(origin);

  const keyBody: Schemas['CreateApiKey'] = { role: 'verifier', sub: 'verifier-ts-client', name: 'TS Client Verifier' };
  const key = must(await api.call('post', '/v1/api-keys', {}, keyBody, { token: adminToken }), 'POST /v1/api-keys');
  const verifierToken = key.body.data.attributes.token;
  if (!verifierToken) throw new Error('the API key response carries no token');

  const wallet = ethers.Wallet.createRandom();
  const issueBody: Schemas['IssueIdentity'] = {
    subjectRef: `ts-client-${ethers.hexlify(ethers.randomBytes(6)).slice(2)}`,
    walletAddress: wallet.address,
    payload: { scenario: 'success' },
  };
  const issued = must(await api.call('post', '/identity/issue', {}, issueBody, { environment: 'SANDBOX' }), 'POST /identity/issue');
  const did = issued.body.did;

  const ask: Schemas['CreateVerificationRequest'] = {
    subjectRef: did,
    scope: ['identity', 'is_adult'],
    reason: 'TS client: typed from the OpenAPI document',
    mode: 'PROOF_ONLY',
  };
  const idem = `ts-client-${Date.now()}`;
  const created = must(await api.call('post', '/verify/request', {}, ask, { token: verifierToken, idempotencyKey: idem }), 'POST /verify/request');
  const again = must(await api.call('post', '/verify/request', {}, ask, { token: verifierToken, idempotencyKey: idem }), 'POST /verify/request (replay)');
  const requestId = created.body.requestId;

  const ctxRes = must(await api.call('get', '/consent/{requestId}', { requestId }, undefined), 'GET /consent/{requestId}');
  const ctx: Schemas['ConsentContext'] = ctxRes.body;
  const preset = ctx.presets?.find((p) => p.decision === 'APPROVED');
  if (!preset) throw new Error('no APPROVED preset');
  if (preset.disclosedScopeHash !== disclosedScopeHash(preset.disclosedScope)) throw new Error('preset hash differs');
  const message: Schemas['ConsentTypedData']['message'] = {
    ...ctx.typedData.message,
    decision: 'APPROVED',
    disclosedScopeHash: preset.disclosedScopeHash,
  };
  const td = ctx.typedData;
  const signature = await wallet.signTypedData(td.domain, ethersTypes(td.types), message);
  const decisionBody: Schemas['ConsentDecision'] = {
    decision: 'APPROVED',
    disclosedScope: preset.disclosedScope,
    holderAddress: wallet.address,
    holderSignature: signature,
  };
  const decided = must(await api.call('post', '/consent/{requestId}', { requestId }, decisionBody), 'POST /consent/{requestId}');
  const att = decided.body.attestation;
  if (!att) throw new Error('an approval carries its attestation');

  const issuer = must(await api.call('get', '/attestation/issuer', {}, undefined), 'GET /attestation/issuer');
  const atd: Schemas['AttestationTypedData'] | undefined = att.typedData;
  if (!atd) throw new Error('the attestation carries its typed data');
  const recoveredIssuer = ethers.verifyTypedData(atd.domain, ethersTypes(atd.types), atd.message, att.signature);
  const status = must(await api.call('get', '/attestation/{id}/status', { id: att.id }, undefined), 'GET /attestation/{id}/status');

  const missing = await api.call('get', '/verify/request/{id}', { id: 'vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa' }, undefined);
  if (missing.ok) throw new Error('an unknown request was found');
  const first = missing.error.errors[0];
  if (!first) throw new Error('an error document has at least one error');

  return {
    requestId,
    replayed: again.headers.get('Idempotent-Replayed'),
    sameRequestReplayed: again.body.requestId === requestId,
    decision: decided.body,
    attestationStatus: status.body.status,
    issuerAddress: issuer.body.address,
    recoveredIssuer,
    consentClaims: att.claims.consent,
    error: { status: missing.status, code: first.code, id: first.id, requestIdHeader: missing.requestId },
    rateLimitPolicy: created.headers.get('RateLimit-Policy'),
  };
}
