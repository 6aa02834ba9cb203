import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  /** Loads again (keeping the data shown meanwhile). */
  readonly reload: () => void;
}

/**
 * Runs `load` when `deps` change and on `reload()`; an answer that arrives after a newer request started is
 * dropped, so a slow page of filters never overwrites a faster, later one.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: null,
    loading: true,
  });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => mine === generation.current && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        mine === generation.current && setState((previous) => ({ ...previous, error, loading: false })),
    );
    // The caller's deps decide when to load, as with useEffect.
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}
