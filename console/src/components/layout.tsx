import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Session } from '../api/api-types.js';
import { Link } from '../router/link.js';
import { consoleHref, type Route } from '../router/match-route.js';

const NAV: readonly { readonly page: Route['page']; readonly path: string; readonly label: string }[] = [
  { page: 'overview', path: '', label: 'Overview' },
  { page: 'events', path: 'events', label: 'Events' },
  { page: 'dead-letters', path: 'dead-letters', label: 'Dead letters' },
  { page: 'silences', path: 'silences', label: 'Silences' },
  { page: 'rule-tester', path: 'rule-tester', label: 'Rule tester' },
];

/** The frame of every signed-in page: header with the key and Sign out, the left nav, and the page in `<main>`. */
export function Layout(props: {
  readonly session: Session;
  readonly route: Route;
  readonly pathname: string;
  readonly onSignOut: () => void;
  readonly liveError: string | null;
  readonly children: ComponentChildren;
}) {
  const current = props.route.page === 'event' ? 'events' : props.route.page;
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  useEffect(() => {
    // After moving to another page, start reading (and tabbing) at its content, as a page load would.
    if (first.current) first.current = false;
    else main.current?.focus();
  }, [props.pathname]);
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Switchyard</span>
        <div class="who">
          <span>
            Signed in as <strong class="key-name">{props.session.key}</strong>
          </span>
          <span class="scopes" aria-label="Scopes">
            {props.session.scopes.map((scope) => (
              <span key={scope} class="scope">
                {scope}
              </span>
            ))}
          </span>
          <button type="button" onClick={props.onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <nav class="side" aria-label="Console">
        <ul>
          {NAV.map((item) => (
            <li key={item.page}>
              <Link href={consoleHref(item.path)} aria-current={item.page === current ? 'page' : undefined}>
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} ref={main}>
        {props.liveError !== null && (
          <p class="notice notice-warning" role="status">
            Live updates paused: {props.liveError}
          </p>
        )}
        {props.children}
      </main>
    </div>
  );
}
