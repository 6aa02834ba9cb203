import type { ToneLook } from './severity-tone.js';

/**
 * The headline of a default Teams card (the event's or the digest's), bold on a band in `style`'s colour.
 * `text` must already be escaped.
 */
export function cardHeadline(text: string, style: ToneLook['band']): Readonly<Record<string, unknown>> {
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
