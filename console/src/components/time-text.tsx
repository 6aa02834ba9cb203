import { formatTime } from '../format/format-time.js';

/** A time as `<time>`, machine-readable in `datetime`. */
export function TimeText(props: { readonly iso: string | null | undefined }) {
  if (props.iso === null || props.iso === undefined) return <span>—</span>;
  return <time dateTime={props.iso}>{formatTime(props.iso)}</time>;
}
