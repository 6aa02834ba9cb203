import { presentAttempt, presentDelivery } from '../admin/api/present-delivery.js';
import { flattenHeaderText } from '../delivery/targets/flatten-header-text.js';
import { describeHold } from '../noise/describe-hold.js';
import { describeWaiting } from '../lifecycle/describe-waiting.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { Store, StoredDelivery } from '../store/store.js';
import type { CliCommand, CliIo } from './cli-io.js';
import { DELIVERY_FILTER_OPTIONS, DELIVERY_FILTER_USAGE, parseDeliveryFilter } from './delivery-filter-args.js';
import { describeDeliveryEvents, type DeliveryEvent } from './describe-delivery-event.js';
import { formatTable } from './format-table.js';
import { openJournal } from './open-journal.js';
import { parseCommandArgs } from './parse-command-args.js';
import { resolveHeldBy } from './resolve-held-by.js';

const USAGE = `usage: switchyard deliveries [ID] [options]

Lists deliveries from the journal, newest first (100 unless --limit), with the kind, severity and title of
their event, or with ID (dlv_...) one delivery and every attempt made for it. Times are ISO 8601 (UTC).
Works while the daemon runs.
${DELIVERY_FILTER_USAGE}
  --json          machine-readable output: the admin API's delivery fields plus kind, severity
                  and title; nextAttemptAt as stored
`;

/** `switchyard deliveries`: reads the journal; changes nothing. */
export const runDeliveries: CliCommand = async (args, io) => {
  const options = { ...DELIVERY_FILTER_OPTIONS, json: { type: 'boolean' } } as const;
  const parsed = parseCommandArgs(args, options, { min: 0, max: 1 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const filter = parseDeliveryFilter(parsed.values, Date.now());
  if (typeof filter === 'string') {
    io.stderr(`switchyard deliveries: ${filter}\n${USAGE}`);
    return 2;
  }
  const json = parsed.values.json === true;
  const config = typeof parsed.values.config === 'string' ? parsed.values.config : undefined;
  try {
    const store = await openJournal(config, io);
    try {
      const id = parsed.positionals[0];
      if (id !== undefined) return await showOne(id, store, io, json);
      // The admin API's listing order (createdAt, then id, newest first), from the same store query.
      const heldBy = await resolveHeldBy(store, filter.heldBy);
      const rows = await store.findDeliveries({ ...filter, heldBy, order: 'newest' });
      const events = await describeDeliveryEvents(
        store,
        rows.map((d) => d.eventId),
      );
      io.stdout(
        json
          ? `${JSON.stringify(
              rows.map((d) => present(d, events)),
              null,
              2,
            )}\n`
          : formatDeliveries(rows, events),
      );
      return 0;
    } finally {
      await store.close();
    }
  } catch (error) {
    if (!(error instanceof SwitchyardError)) throw error;
    io.stderr(`switchyard deliveries: ${error.code}: ${error.message}\n`);
    return 1;
  }
};

async function showOne(id: string, store: Store, io: CliIo, json: boolean): Promise<number> {
  const delivery = await store.getDelivery(id);
  if (delivery === undefined) {
    io.stderr(`switchyard deliveries: no delivery ${id}\n`);
    return 1;
  }
  const attempts = await store.listAttempts(id);
  const events = await describeDeliveryEvents(store, [delivery.eventId]);
  if (json) {
    const shown = { ...present(delivery, events), history: attempts.map(presentAttempt) };
    io.stdout(`${JSON.stringify(shown, null, 2)}\n`);
    return 0;
  }
  io.stdout(formatDeliveries([delivery], events));
  io.stdout('\n');
  io.stdout(
    formatTable(
      ['#', 'STARTED', 'DURATION', 'OUTCOME', 'CODE', 'DETAIL'],
      attempts.map((a) => [
        String(a.number),
        new Date(a.startedAt).toISOString(),
        `${a.durationMs} ms`,
        a.outcome,
        a.statusCode === null ? '-' : String(a.statusCode),
        cell(a.detail, 120, ''),
      ]),
    ),
  );
  return 0;
}

/** As the admin API shows a delivery (times in ISO 8601), with its event's kind, severity and title. */
function present(delivery: StoredDelivery, events: ReadonlyMap<string, DeliveryEvent>) {
  const { id, eventId, ...rest } = presentDelivery(delivery);
  return { id, eventId, ...events.get(eventId), ...rest };
}

/**
 * What the sender (kind, severity, title) or the receiver (errors) wrote, made fit for one table cell: control
 * characters (C0, C1, DEL, so ESC and CSI too) become spaces, so an event cannot drive the terminal, and the
 * text is cut to `width`, so one huge field cannot bury the table.
 */
const cell = (text: string | null | undefined, width: number, absent = '-'): string =>
  text === null || text === undefined ? absent : flattenHeaderText(text, width);

function formatDeliveries(rows: readonly StoredDelivery[], events: ReadonlyMap<string, DeliveryEvent>): string {
  if (rows.length === 0) return 'no deliveries match\n';
  return formatTable(
    [
      'ID',
      'EVENT',
      'KIND',
      'SEVERITY',
      'TITLE',
      'TARGET',
      'STATE',
      'ATTEMPTS',
      'NEXT / LAST CHANGE',
      'LAST ERROR / HELD',
    ],
    rows.map((d) => [
      d.id,
      d.eventId,
      cell(events.get(d.eventId)?.kind, 40),
      cell(events.get(d.eventId)?.severity, 12),
      cell(events.get(d.eventId)?.title, 40),
      d.target,
      d.state,
      String(d.attempts),
      new Date(d.state === 'pending' ? d.nextAttemptAt : d.updatedAt).toISOString(),
      cell(describeWaiting(d) ?? d.lastError ?? describeHold(d.state, d.heldBy), 80, ''),
    ]),
  );
}
