import type { ReactNode } from 'react';
import './globals.css';

export const metadata = {
  title: 'Toolgate console',
  description: 'Catalog, releases, policies, approvals, calls and audit for Toolgate.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
