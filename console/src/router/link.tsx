import type { ComponentChildren } from 'preact';
import { useRouter } from './use-router.js';

/**
 * An ordinary link (it opens in a new tab, can be copied, and works without the router) that navigates inside
 * the page on a plain left click.
 */
export function Link(props: {
  readonly href: string;
  readonly children: ComponentChildren;
  readonly class?: string;
  readonly 'aria-current'?: 'page' | undefined;
}) {
  const router = useRouter();
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    router.navigate(props.href);
  };
  return (
    <a href={props.href} class={props.class} aria-current={props['aria-current']} onClick={onClick}>
      {props.children}
    </a>
  );
}
