import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, describeError } from './api/api-error.js';
import { createAdminClient } from './api/admin-client.js';
import type { Session } from './api/api-types.js';
import { Layout } from './components/layout.js';
import { useChanges } from './live/use-changes.js';
import { DeadLettersPage } from './pages/dead-letters-page.js';
import { EventPage } from './pages/event-page.js';
import { EventsPage } from './pages/events-page.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { OverviewPage } from './pages/overview-page.js';
import { RuleTesterPage } from './pages/rule-tester-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { SilencesPage } from './pages/silences-page.js';
import { matchRoute } from './router/match-route.js';
import { RouterContext, useHistoryRouter } from './router/use-router.js';

/**
 * The console: asks the daemon whether this browser has a session (a reload keeps it, and gets its CSRF token
 * back), shows the sign-in page until it has one, then the page for the location. Everything goes through the
 * one client, which reports a lost session (401) so the page returns to sign-in.
 */
export function App(props: { readonly win: Window; readonly fetchFn: typeof fetch }) {
  const router = useHistoryRouter(props.win);
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  const client = useMemo(
    () =>
      createAdminClient(props.fetchFn, {
        onUnauthorized: (error) => {
          setSession(null);
          // The daemon says why: a restart forgets every session, which is not a changed key.
          setNotice(`Your session ended: ${error.message}. Sign in again.`);
        },
      }),
    [props.fetchFn],
  );
  useEffect(() => {
    client.session().then(setSession, (error: unknown) => {
      setSession(null);
      if (!(error instanceof ApiError && error.status === 401)) setNotice(describeError(error));
    });
  }, [client]);
  const live = useChanges(session ? client : null, props.win.document);
  const route = matchRoute(router.pathname);
  useEffect(() => {
    props.win.document.title = `${session ? TITLES[route.page] : 'Sign in'} · Switchyard`;
  }, [route.page, session, props.win]);

  if (session === undefined) return <p class="loading">Loading…</p>;
  if (session === null) {
    const signedIn = (next: Session) => {
      setNotice(null);
      setSession(next);
    };
    return <SignInPage client={client} notice={notice} onSignedIn={signedIn} />;
  }
  const signOut = async () => {
    try {
      await client.signOut();
      setNotice('Signed out.');
    } catch (error) {
      setNotice(`Signed out here; the daemon said: ${describeError(error)}`);
    }
    setSession(null);
  };
  const liveError = live.error === null ? null : describeError(live.error);
  const page = { client, session, live };
  return (
    <RouterContext.Provider value={router}>
      <Layout
        session={session}
        route={route}
        pathname={router.pathname}
        onSignOut={() => void signOut()}
        liveError={liveError}
      >
        {route.page === 'overview' && <OverviewPage {...page} />}
        {route.page === 'events' && <EventsPage {...page} />}
        {route.page === 'event' && <EventPage {...page} id={route.id} />}
        {route.page === 'dead-letters' && <DeadLettersPage {...page} />}
        {route.page === 'silences' && <SilencesPage {...page} />}
        {route.page === 'rule-tester' && <RuleTesterPage {...page} />}
        {route.page === 'not-found' && <NotFoundPage />}
      </Layout>
    </RouterContext.Provider>
  );
}

const TITLES: Readonly<Record<ReturnType<typeof matchRoute>['page'], string>> = {
  overview: 'Overview',
  events: 'Events',
  event: 'Event',
  'dead-letters': 'Dead letters',
  silences: 'Silences',
  'rule-tester': 'Rule tester',
  'not-found': 'Not found',
};
