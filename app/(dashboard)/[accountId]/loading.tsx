import { LoadingState } from '@/components/ui/feedback';

export default function Loading() {
  return <LoadingState />;
}
