import { describe, expect, it } from 'vitest';
import { buildHttpAttempt, NOTHING_TO_RESOLVE } from '../../../src/delivery/targets/build-http-attempt.js';
import type { HttpAnswer } from '../../../src/delivery/http/create-http-sender.js';
import type { HttpRequestParts } from '../../../src/delivery/targets/build-http-request.js';
import { chooseHttpRequest } from '../../../src/delivery/targets/choose-http-request.js';
import type { DeliveryJob } from '../../../src/delivery/target.js';
import { httpSpecCompiler } from './http-spec-compiler.js';
import { makeJob } from './make-target-spec.js';

const compile = httpSpecCompiler();
const FULL = compile(`requests:
  create: { url: 'https://jira.example/issue', body: { s: '{{ situation }}' }, capture: { ticket: body.key } }
  update: { method: PUT, url: 'https://jira.example/issue/{{ ref.ticket }}', body: { s: '{{ situation }} {{ ref.ticket }}' } }
  resolve: { method: PATCH, url: 'https://jira.example/issue/{{ ref.ticket }}/close' }`);
const CREATE_ONLY = compile(`requests:\n  create: { url: 'https://jira.example/issue' }`);
const NO_RESOLVE = compile(`requests:
  create: { url: 'https://jira.example/issue', capture: { ticket: body.key } }
  update: { url: 'https://jira.example/issue/{{ ref.ticket }}/comment' }`);

const job = (kind: string, references: Record<string, string> | null): DeliveryJob => ({
  ...makeJob({ event: kind, timestamp: '2026-11-22T10:00:00Z', data: { incident_id: 'inc_1' } }),
  references,
});

describe('chooseHttpRequest', () => {
  it('takes the request of the situation; resolve falls back to update; update has no fallback', () => {
    expect(chooseHttpRequest(FULL, 'resolve')).toMatchObject({ name: 'resolve', request: { method: 'PATCH' } });
    expect(chooseHttpRequest(NO_RESOLVE, 'resolve')).toMatchObject({ name: 'update', request: { method: 'POST' } });
    expect(chooseHttpRequest(CREATE_ONLY, 'resolve')).toEqual({ name: 'update', request: null });
    expect(chooseHttpRequest(CREATE_ONLY, 'update')).toEqual({ name: 'update', request: null });
    expect(chooseHttpRequest(CREATE_ONLY, 'create').request?.url).toBe('https://jira.example/issue');
  });

  it('gives a target without requests its one request in every situation', () => {
    const single = compile(`url: https://h.example/x\nmethod: PUT`);
    for (const situation of ['create', 'update', 'resolve'] as const) {
      expect(chooseHttpRequest(single, situation)).toMatchObject({
        name: situation,
        request: { method: 'PUT', capture: [] },
      });
    }
  });
});

describe('buildHttpAttempt', () => {
  it('creates for the first event of a key, updates and resolves with its references', () => {
    const create = buildHttpAttempt(FULL, job('incident.created', null));
    expect(create).toMatchObject({ method: 'POST', url: new URL('https://jira.example/issue') });
    expect(JSON.parse((create as { body: Buffer }).body.toString())).toEqual({ s: 'create' });
    const update = buildHttpAttempt(FULL, job('incident.updated', { ticket: 'SOC-1' }));
    expect(update).toMatchObject({ method: 'PUT', url: new URL('https://jira.example/issue/SOC-1') });
    expect(JSON.parse((update as { body: Buffer }).body.toString())).toEqual({ s: 'update SOC-1' });
    expect(buildHttpAttempt(FULL, job('incident.resolved', { ticket: 'SOC-1' }))).toMatchObject({
      method: 'PATCH',
      url: new URL('https://jira.example/issue/SOC-1/close'),
    });
  });

  it('skips a resolve for a key with nothing delivered: nothing to resolve, and nothing to hold the key for', () => {
    expect(buildHttpAttempt(FULL, job('incident.resolved', null))).toEqual({
      kind: 'skipped',
      error: NOTHING_TO_RESOLVE,
    });
  });

  it('never skips a replayed resolve: it was delivered once, which cleared its key, and is asked for again', () => {
    const replayed = { ...job('incident.resolved', null), replayed: true };
    expect(buildHttpAttempt(FULL, replayed)).not.toMatchObject({ kind: 'skipped' });
  });

  it('dead-letters a request whose URL needs a reference the key does not have, naming it', () => {
    // A create delivered without its capture leaves the key with references but no ticket.
    expect(buildHttpAttempt(FULL, job('incident.updated', {}))).toEqual({
      kind: 'permanent',
      error: "the update request's URL needs ref.ticket, and nothing was captured for this key yet",
    });
    expect(buildHttpAttempt(FULL, job('incident.updated', { other: 'x' }))).toEqual({
      kind: 'permanent',
      error: "the update request's URL needs ref.ticket, and the key has only ref.other",
    });
  });

  it('sends nothing, as delivered with a note, for a situation the target has no request for', () => {
    expect(buildHttpAttempt(CREATE_ONLY, job('incident.updated', { ticket: 'SOC-1' }))).toEqual({
      kind: 'delivered',
      detail: 'not sent: the target has no update request (requests.update)',
    });
  });

  it('adds the captured values to a delivered outcome only, and names those the answer lacked, first, with why', () => {
    const parts = buildHttpAttempt(FULL, job('incident.created', null));
    if ('kind' in parts || parts.delivered === undefined) throw new Error('expected a request that captures');
    const answer = { status: 201, headers: {}, body: Buffer.from('{"id":"10001","key":"SOC-1"}'), cut: false };
    expect(parts.delivered(answer, { kind: 'delivered', status: 201, detail: 'created' })).toEqual({
      kind: 'delivered',
      status: 201,
      detail: 'created',
      captured: { ticket: 'SOC-1' },
    });
    expect(parts.delivered({ ...answer, body: Buffer.from('{}') }, { kind: 'delivered', status: 201 })).toEqual({
      kind: 'delivered',
      status: 201,
      detail: 'capture missed: ticket (no body.key in the answer)',
      captured: {},
      captureMiss: 'capture missed: ticket (no body.key in the answer)',
    });
    // An answer longer than the bound was cut: nothing is read from a part of it, and the miss says why.
    const cut = { ...answer, cut: true };
    expect(parts.delivered(cut, { kind: 'delivered', status: 201, detail: '{"id"…' })).toEqual({
      kind: 'delivered',
      status: 201,
      detail: 'capture missed: ticket (the answer is over 1 MiB, more than captures read); {"id"…',
      captured: {},
      captureMiss: 'capture missed: ticket (the answer is over 1 MiB, more than captures read)',
    });
  });

  it('says in the record that a replayed delivery was sent as a create, on a lifecycle target only', () => {
    const answer = { status: 201, headers: {}, body: Buffer.from('{"key":"SOC-2"}'), cut: false };
    const replayed = { ...job('incident.created', null), replayed: true };
    const parts = buildHttpAttempt(FULL, replayed);
    if ('kind' in parts || parts.delivered === undefined) throw new Error('expected a request');
    expect(parts.delivered(answer, { kind: 'delivered', status: 201, detail: '{"key":"SOC-2"}' })).toEqual({
      kind: 'delivered',
      status: 201,
      detail: 'replay of a delivered delivery, sent as a create (requests.create); {"key":"SOC-2"}',
      captured: { ticket: 'SOC-2' },
    });
    const plain = buildHttpAttempt(compile('url: https://h.example/x'), replayed);
    if ('kind' in plain || plain.delivered === undefined) throw new Error('expected a request');
    expect(plain.delivered(answer, { kind: 'delivered', status: 200, detail: 'ok' })).toEqual({
      kind: 'delivered',
      status: 200,
      detail: 'ok',
    });
  });
});

describe('buildHttpAttempt: an update sent as a create', () => {
  const keyed = (kind: string) => ({ ...job(kind, null), correlationKey: 'incident:inc_1' });
  const answer = { status: 201, headers: {}, body: Buffer.from('{}') } as unknown as HttpAnswer;
  const delivered = { kind: 'delivered', detail: 'HTTP 201' } as const;

  it('says so in the attempt record when nothing was delivered or captured for its key', () => {
    const parts = buildHttpAttempt(CREATE_ONLY, keyed('incident.updated')) as HttpRequestParts;
    expect(parts.delivered?.(answer, delivered)).toEqual({
      kind: 'delivered',
      detail: 'sent as create: nothing was delivered or captured for key incident:inc_1 yet; HTTP 201',
    });
  });

  it('says nothing for a create, nor for an update of a started key', () => {
    const create = buildHttpAttempt(CREATE_ONLY, keyed('incident.created')) as HttpRequestParts;
    expect(create.delivered?.(answer, delivered) ?? delivered).toEqual(delivered);
    const started = { ...keyed('incident.updated'), references: { ticket: 'SOC-1' } };
    const update = buildHttpAttempt(NO_RESOLVE, started) as HttpRequestParts;
    expect(update.delivered?.(answer, delivered) ?? delivered).toEqual(delivered);
  });
});
