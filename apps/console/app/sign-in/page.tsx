'use client';

import { useRouter, useSearchParams } from 'next/navigation';
import { Suspense, useState, type FormEvent } from 'react';
import { routes } from '@toolgate/contract';
import { ApiError, apiRequest, describeError, setCsrfToken } from '../lib/api';

function safeNext(next: string | null): string {
  // Only same-origin paths: an open redirect after sign-in would be a phishing aid.
  return next !== null && next.startsWith('/') && !next.startsWith('//') ? next : '/tools';
}

function SignInForm() {
  const router = useRouter();
  const params = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    apiRequest(routes.createConsoleSession, { body: { email, password } }).then(
      (session) => {
        setCsrfToken(session.csrf_token);
        router.replace(safeNext(params.get('next')));
      },
      (failure: unknown) => {
        setBusy(false);
        if (failure instanceof ApiError && failure.status === 401)
          setError('Wrong email or password. Check both and try again.');
        else if (failure instanceof ApiError && failure.status === 429)
          setError('Too many attempts. Wait a minute, then try again.');
        else setError(describeError(failure));
      },
    );
  };

  return (
    <form
      className="card sign-in"
      onSubmit={submit}
      aria-describedby={error ? 'sign-in-error' : undefined}
    >
      <h1>Sign in to Toolgate</h1>
      <label htmlFor="email">Email</label>
      <input
        id="email"
        name="email"
        type="email"
        autoComplete="username"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <label htmlFor="password">Password</label>
      <input
        id="password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      {error ? (
        <p id="sign-in-error" className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
      <p className="hint">
        The first admin is admin@toolgate.local unless TOOLGATE_CONSOLE_ADMIN_EMAIL says otherwise.
        Its password is TOOLGATE_CONSOLE_ADMIN_PASSWORD or, without it, the one `npm start`
        generated into <code>.toolgate/console-admin-password</code> (in the directory it was
        started from).
      </p>
    </form>
  );
}

export default function SignInPage() {
  return (
    <main className="centered">
      <Suspense fallback={null}>
        <SignInForm />
      </Suspense>
    </main>
  );
}
