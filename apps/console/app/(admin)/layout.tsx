'use client';

import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { routes, type ConsoleSession } from '@toolgate/contract';
import { apiRequest, setCsrfToken } from '../lib/api';
import { currentSessionRoute } from '../lib/console-routes';
import { canAdminister, SessionProvider, type SessionValue } from '../components/session';
import { ErrorState, Loading } from '../components/states';

const NAV = [
  { href: '/tools', label: 'Catalog' },
  { href: '/releases', label: 'Releases' },
  { href: '/policies', label: 'Policies' },
  { href: '/imports', label: 'Imports', adminOnly: true },
  { href: '/secrets', label: 'Secrets' },
  { href: '/approvals', label: 'Approvals' },
  { href: '/calls', label: 'Calls' },
  { href: '/runs', label: 'Runs' },
  { href: '/audit', label: 'Audit trail' },
  { href: '/slo', label: 'SLOs' },
  { href: '/cost', label: 'Cost' },
  { href: '/users', label: 'People', adminOnly: true },
];

export default function AdminLayout({ children }: { children: ReactNode }) {
  const router = useRouter();
  const pathname = usePathname();
  const [session, setSession] = useState<ConsoleSession | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [attempt, setAttempt] = useState(0);
  // On a phone the navigation folds behind a menu button; following a link folds it again.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    let active = true;
    // app/session/route.ts checks the session against the contract before it gets here.
    apiRequest(currentSessionRoute, {}).then(
      ({ session: current }) => {
        if (!active) return;
        if (current === null) {
          router.replace(
            `/sign-in?next=${encodeURIComponent(window.location.pathname + window.location.search)}`,
          );
          return;
        }
        setCsrfToken(current.csrf_token);
        setSession(current);
      },
      (failure: unknown) => {
        if (active) setError(failure);
      },
    );
    return () => {
      active = false;
    };
  }, [router, attempt]);

  const signOut = useCallback(() => {
    apiRequest(routes.deleteConsoleSession, {})
      .catch(() => undefined)
      .finally(() => {
        setCsrfToken(null);
        router.replace('/sign-in');
      });
  }, [router]);

  const value = useMemo<SessionValue | null>(
    () => (session === null ? null : { user: session.user, signOut }),
    [session, signOut],
  );

  if (value === null) {
    return (
      <main className="centered">
        {error === undefined ? (
          <Loading what="your session" />
        ) : (
          <ErrorState error={error} onRetry={() => setAttempt((n) => n + 1)} />
        )}
      </main>
    );
  }

  return (
    <SessionProvider value={value}>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <div className="shell">
        <nav className={`sidebar ${menuOpen ? 'open' : ''}`} aria-label="Main">
          <div className="sidebar-top">
            <p className="brand">Toolgate</p>
            <button
              type="button"
              className="menu-button"
              aria-expanded={menuOpen}
              aria-controls="main-menu"
              onClick={() => setMenuOpen((open) => !open)}
            >
              {menuOpen ? 'Close' : 'Menu'}
            </button>
          </div>
          <ul id="main-menu">
            {NAV.filter((item) => !item.adminOnly || canAdminister(value.user.role)).map((item) => {
              const current = pathname === item.href || pathname.startsWith(`${item.href}/`);
              return (
                <li key={item.href}>
                  <Link
                    href={item.href}
                    aria-current={current ? 'page' : undefined}
                    className={current ? 'active' : undefined}
                  >
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
          <div className="whoami">
            <p>
              <span className="whoami-name">{value.user.name || value.user.email}</span>
              <span className={`badge role-${value.user.role}`}>{value.user.role}</span>
            </p>
            <button type="button" className="link-button" onClick={signOut}>
              Sign out
            </button>
          </div>
        </nav>
        <main id="content" className="content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </SessionProvider>
  );
}
