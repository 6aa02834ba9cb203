import { describeError } from '../api/api-error.js';

/** An error the page could not recover from by itself, announced to screen readers. */
export function ErrorNotice(props: { readonly error: unknown }) {
  if (props.error === null || props.error === undefined) return null;
  return (
    <p class="notice notice-error" role="alert">
      {describeError(props.error)}
    </p>
  );
}
