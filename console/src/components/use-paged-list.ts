import { useEffect, useState } from 'preact/hooks';
import type { Page, ScanStop } from '../api/api-types.js';

export interface PagedList<T> {
  readonly rows: readonly T[];
  readonly setRows: (update: (rows: readonly T[]) => readonly T[]) => void;
  readonly cursor: string | null;
  /** How far the last page's search read, when its scan bound ended it before the page was full. */
  readonly scanned: ScanStop | null;
  readonly loading: boolean;
  readonly error: unknown;
  /** The first page again (`null`) or the page after `cursor` ("Older"), appended. */
  readonly load: (after: string | null) => Promise<void>;
}

/** A keyset-paged listing: the first page whenever `key` (the filters) changes, older pages appended on demand. */
export function usePagedList<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  key: string,
): PagedList<T> {
  const [rows, setRows] = useState<readonly T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [scanned, setScanned] = useState<ScanStop | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const load = async (after: string | null) => {
    setLoading(true);
    try {
      const page = await fetchPage(after ?? undefined);
      setRows((previous) => (after === null ? page.items : [...previous, ...page.items]));
      setCursor(page.nextCursor);
      setScanned(page.scanned ?? null);
      setError(null);
    } catch (failure) {
      setError(failure);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void load(null);
  }, [key]);
  return { rows, setRows, cursor, scanned, loading, error, load };
}
