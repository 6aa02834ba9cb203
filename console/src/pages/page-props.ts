import type { AdminClient } from '../api/admin-client.js';
import type { Session } from '../api/api-types.js';
import type { LiveChanges } from '../live/use-changes.js';

/** What every signed-in page is given. */
export interface PageProps {
  readonly client: AdminClient;
  readonly session: Session;
  readonly live: LiveChanges;
}

/** Whether the signed-in key has a scope (the server checks it again on every request). */
export function hasScope(session: Session, scope: 'read' | 'replay' | 'silence'): boolean {
  return session.scopes.includes(scope);
}
