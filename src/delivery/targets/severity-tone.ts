/** How a default chat message shows an event's urgency, the same on every chat target. */
export interface ToneLook {
  /** Slack shortcode. */
  readonly slackEmoji: string;
  /** The same emoji in Unicode (Teams shows no shortcodes). */
  readonly emoji: string;
  /** Slack attachment colour bar. */
  readonly color: string;
  /** Adaptive Card container style of the Teams headline band; Teams picks its colour. */
  readonly band: 'good' | 'attention' | 'warning' | 'accent' | 'emphasis';
}

/** Good news (resolved, back online) is green whatever its severity. */
const GOOD_NEWS: ReadonlySet<string> = new Set(['incident.resolved', 'agent.online']);
const GOOD: ToneLook = { slackEmoji: ':white_check_mark:', emoji: '✅', color: '#2EB67D', band: 'good' };
const BY_SEVERITY: Readonly<Record<string, ToneLook>> = {
  critical: { slackEmoji: ':rotating_light:', emoji: '🚨', color: '#B00020', band: 'attention' },
  high: { slackEmoji: ':red_circle:', emoji: '🔴', color: '#E01E5A', band: 'attention' },
  medium: { slackEmoji: ':large_orange_circle:', emoji: '🟠', color: '#F2994A', band: 'warning' },
  low: { slackEmoji: ':large_yellow_circle:', emoji: '🟡', color: '#ECB22E', band: 'warning' },
  info: { slackEmoji: ':large_blue_circle:', emoji: '🔵', color: '#1D9BD1', band: 'accent' },
};
const NO_SEVERITY: ToneLook = { slackEmoji: ':white_circle:', emoji: '⚪', color: '#9E9E9E', band: 'emphasis' };
/** An unexpected severity is shown as urgent, as the rules read it (the highest level). */
const UNKNOWN_SEVERITY: ToneLook = { slackEmoji: ':warning:', emoji: '⚠️', color: '#B00020', band: 'attention' };

export function toneLook(kind: string, severity: string | null): ToneLook {
  if (GOOD_NEWS.has(kind)) return GOOD;
  if (severity === null) return NO_SEVERITY;
  return BY_SEVERITY[severity.toLowerCase()] ?? UNKNOWN_SEVERITY;
}
