import { useEffect, useState } from 'preact/hooks';
import type { AdminClient } from '../api/admin-client.js';
import type { Changes } from '../api/api-types.js';
import { startChangesPoller } from './poll-changes.js';

/** The latest batch of changes (with a sequence number, so pages can tell batches apart) and the poll's error. */
export interface LiveChanges {
  readonly seq: number;
  readonly latest: Changes | null;
  readonly error: unknown;
}

/** Polls /changes while signed in, in this document. */
export function useChanges(client: AdminClient | null, doc: Document): LiveChanges {
  const [live, setLive] = useState<LiveChanges>({ seq: 0, latest: null, error: null });
  useEffect(() => {
    if (client === null) return undefined;
    const poller = startChangesPoller({
      fetchChanges: (after) => client.changes(after),
      onChanges: (changes) => {
        if (changes.events.length === 0 && changes.deliveries.length === 0) return;
        setLive((previous) => ({ seq: previous.seq + 1, latest: changes, error: null }));
      },
      onError: (error) => setLive((previous) => ({ ...previous, error })),
      isVisible: () => doc.visibilityState === 'visible',
      onVisibilityChange: (listener) => {
        doc.addEventListener('visibilitychange', listener);
        return () => doc.removeEventListener('visibilitychange', listener);
      },
      setTimer: (run, ms) => setTimeout(run, ms),
      clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    });
    return () => poller.stop();
  }, [client, doc]);
  return live;
}
