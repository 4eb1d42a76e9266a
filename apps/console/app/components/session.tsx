'use client';

import { createContext, useContext, type ReactNode } from 'react';
import type { ConsoleRole, ConsoleUser } from '@toolgate/contract';

/** The signed-in person; pages read it to hide what the role cannot do (the API still enforces it). */
export interface SessionValue {
  user: ConsoleUser;
  signOut: () => void;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ value, children }: { value: SessionValue; children: ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession needs a SessionProvider (the admin layout).');
  return session;
}

/** admin changes tools, releases and policies. */
export function canAdminister(role: ConsoleRole): boolean {
  return role === 'admin';
}

/** approver and admin decide approvals. */
export function canDecide(role: ConsoleRole): boolean {
  return role === 'approver' || role === 'admin';
}
