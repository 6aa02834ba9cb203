import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A modal confirmation on the native `<dialog>`: `showModal()` traps focus in it and Escape cancels. Focus starts
 * on Cancel (the safe choice) and returns to what had it before when the dialog closes.
 */
export function ConfirmDialog(props: {
  readonly title: string;
  readonly children: ComponentChildren;
  readonly confirmLabel: string;
  readonly busy?: boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  /** Where focus goes back to; by default what had it when the dialog opened. */
  readonly opener?: HTMLElement;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const opener = props.opener ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null);
    dialog.current?.showModal();
    cancel.current?.focus();
    return () => opener?.focus();
  }, []);
  const onCancelEvent = (event: Event) => {
    event.preventDefault();
    props.onCancel();
  };
  return (
    <dialog ref={dialog} class="dialog" aria-labelledby="dialog-title" onCancel={onCancelEvent}>
      <h2 id="dialog-title">{props.title}</h2>
      <div class="dialog-body">{props.children}</div>
      <div class="actions">
        <button type="button" ref={cancel} onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class="primary" disabled={props.busy === true} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
