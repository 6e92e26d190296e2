import { notFound } from 'next/navigation';
import { RouteDetailView } from '@/components/views/route-detail-view';

export const metadata = { title: 'Route' };

export default async function RoutePage({ params }: { params: Promise<{ accountId: string; routeId: string }> }) {
  const { accountId, routeId } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(routeId)) notFound();
  return <RouteDetailView accountId={accountId} routeId={routeId} />;
}
