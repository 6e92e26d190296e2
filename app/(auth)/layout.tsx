import type { ReactNode } from 'react';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-full items-center justify-center px-4 py-16">
      <div className="w-full max-w-md">
        <p className="mb-6 text-center text-lg font-semibold tracking-tight text-brand-900">✉ Mailstead</p>
        <div className="rounded-lg bg-white p-8 shadow-sm ring-1 ring-slate-200">{children}</div>
      </div>
    </main>
  );
}
