import { ApiError } from './api-error.js';
import type {
  Changes,
  Delivery,
  EventDetail,
  EventSummary,
  NewSilence,
  Overview,
  Page,
  ReplayAnswer,
  Routing,
  RulesCheck,
  RulesDescription,
  Session,
  Silence,
  TargetHealth,
} from './api-types.js';

export type Query = Readonly<Record<string, string | number | undefined>>;

/** The body of POST /replay: a filter, or a selection of delivery ids. */
export type ReplayRequest =
  | { readonly ids: readonly string[]; readonly dryRun?: boolean }
  | {
      readonly state: 'dead';
      readonly target?: string;
      /** Dead letters whose last error contains this text (as the dead-letters filter). */
      readonly reason?: string;
      readonly since?: string;
      readonly until?: string;
      readonly dryRun?: boolean;
    };

export interface AdminClient {
  session(): Promise<Session>;
  signIn(key: string): Promise<Session>;
  signOut(): Promise<void>;
  overview(hours: number): Promise<Overview>;
  events(query: Query): Promise<Page<EventSummary>>;
  event(id: string): Promise<EventDetail>;
  deadLetters(query: Query): Promise<Page<Delivery>>;
  targets(): Promise<{ readonly items: readonly TargetHealth[] }>;
  replay(request: ReplayRequest): Promise<ReplayAnswer>;
  replayOne(id: string): Promise<Delivery>;
  silences(status: string): Promise<Page<Silence>>;
  createSilence(silence: NewSilence): Promise<Silence>;
  extendSilence(id: string, duration: string): Promise<Silence>;
  expireSilence(id: string): Promise<Silence>;
  rules(): Promise<RulesDescription>;
  checkRules(rules: string, event: unknown): Promise<RulesCheck>;
  routeTest(event: unknown): Promise<Routing>;
  changes(after: string | undefined): Promise<Changes>;
}

/**
 * The console's only back end: the admin API on the same origin. The session cookie goes with every request
 * (same-origin); every state-changing request carries the CSRF token the session was given, which the client
 * keeps from sign-in (or from GET /session after a reload) until sign-out. Non-2xx answers become `ApiError`s
 * with the API's error code.
 */
export function createAdminClient(
  fetchFn: typeof fetch,
  options: { readonly base?: string; readonly onUnauthorized?: (error: ApiError) => void } = {},
): AdminClient {
  const base = options.base ?? '/api/v1';
  let csrfToken: string | null = null;

  async function call<T>(method: string, path: string, body?: unknown, query: Query = {}): Promise<T> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== '') search.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
    const qs = search.toString();
    const response = await fetchFn(`${base}${path}${qs === '' ? '' : `?${qs}`}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    const parsed: unknown = text === '' ? null : safeJson(text);
    if (!response.ok) {
      const error = toApiError(response, parsed);
      // The session ended (a restart, its expiry, a rotated key: the message says which): every page needs a new
      // sign-in (the sign-in itself excepted).
      if (error.status === 401 && path !== '/session') options.onUnauthorized?.(error);
      throw error;
    }
    return parsed as T;
  }

  const remember = (session: Session): Session => {
    csrfToken = session.csrfToken;
    return session;
  };
  const id = encodeURIComponent;

  return {
    session: async () => remember(await call<Session>('GET', '/session')),
    signIn: async (key) => remember(await call<Session>('POST', '/session', { key })),
    async signOut() {
      try {
        await call<void>('DELETE', '/session');
      } finally {
        csrfToken = null;
      }
    },
    overview: (hours) => call('GET', '/overview', undefined, { hours }),
    events: (query) => call('GET', '/events', undefined, query),
    event: (eventId) => call('GET', `/events/${id(eventId)}`),
    deadLetters: (query) => call('GET', '/dead-letters', undefined, query),
    targets: () => call('GET', '/targets'),
    replay: (request) => call('POST', '/replay', request),
    replayOne: (deliveryId) => call('POST', `/deliveries/${id(deliveryId)}/replay`),
    silences: (status) => call('GET', '/silences', undefined, { status }),
    createSilence: (silence) => call('POST', '/silences', silence),
    extendSilence: (silenceId, duration) => call('PATCH', `/silences/${id(silenceId)}`, { duration }),
    expireSilence: (silenceId) => call('POST', `/silences/${id(silenceId)}/expire`),
    rules: () => call('GET', '/rules'),
    checkRules: (rules, event) => call('POST', '/rules/check', event === undefined ? { rules } : { rules, event }),
    routeTest: (event) => call('POST', '/route-test', event),
    changes: (after) => call('GET', '/changes', undefined, { after }),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function toApiError(response: Response, body: unknown): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown; problems?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`;
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`;
  const problems = Array.isArray(error?.problems) ? (error.problems as ApiError['problems']) : [];
  const retry = Number(response.headers.get('retry-after'));
  return new ApiError(response.status, code, message, problems, Number.isFinite(retry) && retry > 0 ? retry : null);
}
