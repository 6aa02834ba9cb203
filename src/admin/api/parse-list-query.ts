import type { ListOrder } from '../../store/store.js';
import { SwitchyardError } from '../../switchyard-error.js';
import { parseFilters, rejectUnknown, type FilterName, type Filters } from './parse-filters.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

export interface ListQuery {
  readonly limit: number;
  readonly order: ListOrder;
  readonly cursor: string | undefined;
  readonly filters: Filters;
}

/** `?limit=&cursor=&order=` plus the listing's filters; newest first unless `order=oldest`. */
export function parseListQuery(query: unknown, allowed: readonly FilterName[], now: number): ListQuery {
  const input = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  rejectUnknown(input, ['limit', 'cursor', 'order', ...allowed], 'parameter');
  const text = (name: string): string | undefined => {
    const value = input[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw invalid(`${name}: give it once`);
    return value;
  };
  const limitText = text('limit');
  const limit = limitText === undefined ? DEFAULT_PAGE_SIZE : Number(limitText);
  if (!/^\d+$/.test(limitText ?? '1') || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalid(`limit: must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  const order = text('order') ?? 'newest';
  if (order !== 'newest' && order !== 'oldest') throw invalid('order: must be newest or oldest');
  return { limit, order, cursor: text('cursor'), filters: parseFilters(input, allowed, now) };
}

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('invalid_filter', message, { status: 400 });
}
