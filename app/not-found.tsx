import Link from 'next/link';

export default function NotFound() {
  return (
    <main className="flex min-h-full items-center justify-center p-10">
      <div className="text-center">
        <h1 className="text-xl font-semibold">Not found</h1>
        <p className="mt-2 text-sm text-slate-600">This page does not exist, or you have no access to it.</p>
        <Link href="/" className="mt-4 inline-block text-sm font-medium text-brand-700 hover:underline">
          Go to your dashboard
        </Link>
      </div>
    </main>
  );
}
