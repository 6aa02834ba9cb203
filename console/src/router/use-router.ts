import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';

export interface Router {
  readonly pathname: string;
  readonly query: URLSearchParams;
  /** Goes to an href under the base; `replace` rewrites the current history entry (filters) instead of adding one. */
  navigate(href: string, options?: { readonly replace?: boolean }): void;
}

/** The History API as state: the current location, and navigation that pushes entries and re-renders. */
export function useHistoryRouter(win: Window): Router {
  const read = () => ({ pathname: win.location.pathname, search: win.location.search });
  const [location, setLocation] = useState(read);
  useEffect(() => {
    const onPop = () => setLocation(read());
    win.addEventListener('popstate', onPop);
    return () => win.removeEventListener('popstate', onPop);
  }, [win]);
  const navigate = useCallback(
    (href: string, options: { readonly replace?: boolean } = {}) => {
      if (options.replace === true) win.history.replaceState(null, '', href);
      else win.history.pushState(null, '', href);
      setLocation(read());
      if (options.replace !== true) win.scrollTo(0, 0);
    },
    [win],
  );
  return { pathname: location.pathname, query: new URLSearchParams(location.search), navigate };
}

export const RouterContext = createContext<Router | null>(null);

export function useRouter(): Router {
  const router = useContext(RouterContext);
  if (router === null) throw new Error('useRouter outside <RouterContext.Provider>');
  return router;
}
