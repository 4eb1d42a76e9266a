import { redirect } from 'next/navigation';

// Answered per request so the redirect is a real 307, not a prerendered page.
export const dynamic = 'force-dynamic';

// The catalog is where the platform team starts; signing in is handled by the admin layout.
export default function HomePage() {
  redirect('/tools');
}
