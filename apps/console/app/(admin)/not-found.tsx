import Link from 'next/link';

/** Shown inside the console's layout for an address no page answers, with the ways back. */
export default function NotFound() {
  return (
    <section className="not-found" aria-labelledby="not-found-heading">
      <header className="page-header">
        <h1 id="not-found-heading">Page not found</h1>
        <p className="hint">
          Nothing lives at this address: the link may be old, or the tool, call or policy it pointed
          to was removed.
        </p>
      </header>
      <div className="card">
        <p>Where to go from here:</p>
        <ul>
          <li>
            <Link href="/tools">Catalog</Link>: every tool and its versions
          </li>
          <li>
            <Link href="/calls">Calls</Link>: what ran through the gateway
          </li>
          <li>
            <Link href="/approvals">Approvals</Link>: calls waiting for a person
          </li>
        </ul>
      </div>
    </section>
  );
}
