/** What one instance saw of a watched source since it last reported (issue 12, `expect_events_within`). */
export interface SourceSighting {
  readonly source: string;
  /** The latest verified event received, ms; null when none (only rejected requests, or nothing yet). */
  readonly lastEventAt: number | null;
  /** Requests refused for a bad or missing signature since the last report. */
  readonly rejected: number;
}

/** The shared view of a watched source when it went silent or came back. */
export interface SourceSilence {
  readonly lastEventAt: number;
  /** Requests that failed verification since the last verified event. */
  readonly rejected: number;
  /** When `switchyard.source_silent` was raised. */
  readonly raisedAt: number;
}
