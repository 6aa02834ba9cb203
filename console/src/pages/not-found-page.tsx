import { Link } from '../router/link.js';
import { consoleHref } from '../router/match-route.js';

export function NotFoundPage() {
  return (
    <>
      <h1>Not found</h1>
      <p>
        There is no console page here. Go to the <Link href={consoleHref('')}>overview</Link>.
      </p>
    </>
  );
}
