import { createEventFactory, sign, SIGNATURE_HEADER, type SignedEvent } from './signed-event.js';

interface Answer {
  readonly status: number;
  readonly json: Record<string, unknown>;
}

async function post(url: string, event: SignedEvent): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: event.signature },
    body: event.body,
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // keep {}: the checks below report the status and body
  }
  return { status: response.status, json };
}

function expect(condition: boolean, what: string, answer: Answer): void {
  if (!condition) throw new Error(`smoke check failed: ${what} (got ${answer.status} ${JSON.stringify(answer.json)})`);
}

/**
 * Before measuring, checks that the servers answer the benchmark's requests the way the numbers assume:
 * a fresh signed event gets 200 (and from Switchyard `"duplicate": false`), a bad signature gets 401, and
 * Switchyard answers a re-sent body as a duplicate, which is why the load uses a distinct body per request.
 */
export async function smokeCheck(url: string, secret: string, isSwitchyard: boolean): Promise<void> {
  const event = createEventFactory(secret)();
  const first = await post(url, event);
  expect(first.status === 200, `${url}: a signed event is accepted with 200`, first);
  if (isSwitchyard) {
    expect(first.json.duplicate === false, 'a new event is not a duplicate', first);
    expect(typeof first.json.deliveries === 'number' && first.json.deliveries > 0, 'the event routes somewhere', first);
    const again = await post(url, event);
    expect(again.status === 200 && again.json.duplicate === true, 'the same body again is a duplicate', again);
  }
  const forged = await post(url, { body: event.body, signature: sign(event.body, `${secret}-wrong`) });
  expect(forged.status === 401, `${url}: a wrong signature is rejected with 401`, forged);
}
