import type { ListOrder } from '../../store/store.js';
import { SwitchyardError } from '../../switchyard-error.js';

/** Where the next page of one listing starts. Opaque to clients: base64url JSON, checked when it comes back. */
export interface PagePosition {
  /** Which listing it belongs to, so a cursor from one cannot be fed to another. */
  readonly list: 'events' | 'deliveries';
  readonly order: ListOrder;
  readonly id: string;
  /** The sort time of the row (deliveries: `createdAt`). */
  readonly at?: number | undefined;
}

export function encodeCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify([position.list, position.order, position.id, position.at ?? null])).toString(
    'base64url',
  );
}

/** The position in `cursor`, which must come from the same listing and order; a 400 error otherwise. */
export function decodeCursor(cursor: string, list: PagePosition['list'], order: ListOrder): PagePosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (!Array.isArray(value) || value.length !== 4) throw invalid('cursor is not one this API gave out');
  const [fromList, fromOrder, id, at] = value as unknown[];
  if (typeof id !== 'string' || !(at === null ? fromList === 'events' : Number.isSafeInteger(at))) {
    throw invalid('cursor is not one this API gave out');
  }
  if (fromList !== list || fromOrder !== order) {
    throw invalid(`cursor belongs to another listing or order (keep "order" the same while paging)`);
  }
  return { list, order, id, at: at === null ? undefined : (at as number) };
}

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('invalid_cursor', message, { status: 400 });
}
