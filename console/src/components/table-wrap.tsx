import type { ComponentChildren } from 'preact';

/**
 * A table that scrolls sideways on its own when it is wider than the screen (a phone), rather than the page:
 * a named region with a tab stop, so a keyboard can scroll it too (WCAG 2.1.1; axe `scrollable-region-focusable`).
 */
export function TableWrap(props: { readonly label: string; readonly children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={props.label} tabIndex={0}>
      {props.children}
    </div>
  );
}
