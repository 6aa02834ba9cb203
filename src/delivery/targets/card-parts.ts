/** An Adaptive Card container style: the host colours the band behind the headline with it. */
export type BandStyle = 'good' | 'attention' | 'warning' | 'accent' | 'emphasis';

/**
 * The headline of a default Teams card (the event's or the digest's), bold on a band in `style`'s colour.
 * `text` must already be escaped.
 */
export function cardHeadline(text: string, style: BandStyle): Readonly<Record<string, unknown>> {
  return {
    type: 'Container',
    style,
    bleed: true,
    items: [{ type: 'TextBlock', text, weight: 'Bolder', size: 'Medium', wrap: true }],
  };
}

/** The small grey line at the bottom of a default Teams card; `text` must already be escaped. */
export function cardFooter(text: string): Readonly<Record<string, unknown>> {
  return { type: 'TextBlock', text, size: 'Small', isSubtle: true, wrap: true };
}
