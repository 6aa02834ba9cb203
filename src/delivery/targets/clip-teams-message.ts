import { ELLIPSIS } from './clip-slack-text.js';
import { clipTeamsText } from './clip-teams-text.js';
import { ADAPTIVE_CARD } from './teams-payload.js';

/**
 * Teams refuses a message over about 28 KB
 * (https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook),
 * and through a workflow it does so after the webhook answered 202: the run fails and the message is lost
 * without Switchyard hearing of it. So every payload is kept under `payloadBytes` of JSON, leaving room for
 * what the workflow and Teams add, and each text under a limit for its place, so one field cannot crowd out
 * the rest of the card.
 */
export const TEAMS_LIMITS = {
  payloadBytes: 24_000,
  /** A TextBlock's or TextRun's `text`. */
  text: 5_000,
  factTitle: 200,
  factValue: 2_000,
  /** To fit the payload, no text is cut shorter than this; elements at the end of the body are left out instead. */
  floor: 200,
} as const;

type Json = Record<string, unknown>;

/** A string in the card that may be clipped: `holder[key]`, at most `max` characters. */
interface Slot {
  readonly holder: Json;
  readonly key: string;
  readonly max: number;
}

/**
 * The payload with the texts of its Adaptive Cards clipped, whether they came from the default card or a
 * `message:` template: each TextBlock and TextRun text and fact title and value to its place's limit; then,
 * while the payload is over `payloadBytes`, the longest texts, down to `floor` at most; then the last elements
 * of the card's body, replaced by one saying how many were left out. Everything else passes unchanged.
 */
export function clipTeamsMessage<T extends object>(payload: T): T {
  const copy = structuredClone(payload) as Json;
  const cards = adaptiveCards(copy);
  const slots = cards.flatMap((card) => textSlots(card, []));
  for (const slot of slots) set(slot, clipTeamsText(get(slot), slot.max));
  shrinkLongest(copy, slots);
  leaveOutLast(copy, cards);
  return copy as T;
}

function adaptiveCards(payload: Json): Json[] {
  const attachments = Array.isArray(payload.attachments) ? (payload.attachments as unknown[]) : [];
  return attachments.flatMap((attachment) =>
    isJson(attachment) && attachment.contentType === ADAPTIVE_CARD && isJson(attachment.content)
      ? [attachment.content]
      : [],
  );
}

/** Every text of the card, at any depth (containers, columns, table cells, ...), in document order. */
function textSlots(node: unknown, slots: Slot[]): Slot[] {
  if (Array.isArray(node)) {
    for (const child of node) textSlots(child, slots);
    return slots;
  }
  if (!isJson(node)) return slots;
  if ((node.type === 'TextBlock' || node.type === 'TextRun') && typeof node.text === 'string') {
    slots.push({ holder: node, key: 'text', max: TEAMS_LIMITS.text });
  }
  if (node.type === 'FactSet' && Array.isArray(node.facts)) {
    for (const fact of node.facts) {
      if (!isJson(fact)) continue;
      if (typeof fact.title === 'string') slots.push({ holder: fact, key: 'title', max: TEAMS_LIMITS.factTitle });
      if (typeof fact.value === 'string') slots.push({ holder: fact, key: 'value', max: TEAMS_LIMITS.factValue });
    }
  }
  for (const child of Object.values(node)) textSlots(child, slots);
  return slots;
}

/**
 * Levels the longest texts off: finds the largest length (not under `floor`) that every text may keep so the
 * payload fits, so the long fields share the cut and the short ones (a headline, a host) keep theirs.
 */
function shrinkLongest(payload: Json, slots: readonly Slot[]): void {
  const texts = slots.map(get);
  const fits = (cap: number): boolean => {
    slots.forEach((slot, index) => set(slot, clipTeamsText(texts[index] ?? '', cap)));
    return bytes(payload) <= TEAMS_LIMITS.payloadBytes;
  };
  let low: number = TEAMS_LIMITS.floor;
  let high = texts.reduce((longest, text) => Math.max(longest, text.length), low);
  if (fits(high) || !fits(low)) return;
  // `low` fits and `high` does not: halve the gap until they meet.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle;
  }
  fits(low);
}

/** The last cards first, drops body elements (never the first, the headline) until the payload fits. */
function leaveOutLast(payload: Json, cards: readonly Json[]): void {
  let size = bytes(payload);
  for (const card of [...cards].reverse()) {
    if (size <= TEAMS_LIMITS.payloadBytes || !Array.isArray(card.body)) continue;
    const body = card.body as unknown[];
    const note = (count: number): Json => ({
      type: 'TextBlock',
      text: `${ELLIPSIS} ${count} more elements left out (over Teams' size limit)`,
      wrap: true,
      isSubtle: true,
    });
    let left = 0;
    while (body.length > 1 && size + bytes(note(left + 1)) > TEAMS_LIMITS.payloadBytes) {
      size -= bytes(body.pop()) + 1;
      left += 1;
    }
    if (left > 0) body.push(note(left));
    size = bytes(payload);
  }
}

function get(slot: Slot): string {
  return slot.holder[slot.key] as string;
}

function set(slot: Slot, text: string): void {
  slot.holder[slot.key] = text;
}

function bytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
