import { notFound } from 'next/navigation';

// Unknown addresses land here, so the 404 renders inside the admin layout with its navigation.
export default function MissingPage() {
  notFound();
}
