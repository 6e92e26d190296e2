import type { Services } from '@/lib/core/context';
import type { compileContent, SharedMime } from '@/lib/core/messages/build-mime';
import type { Db } from '@/lib/db/client';
import type { dkimKeys, domains, messageContents } from '@/lib/db/schema';
import type { Destinations } from './destinations';

type Content = typeof messageContents.$inferSelect;
type Domain = typeof domains.$inferSelect;
type Key = typeof dkimKeys.$inferSelect;

/** What a batch shares: contents, domains, keys and suppressions, each loaded once. */
export type BatchContext = {
  db: Db;
  services: Pick<Services, 'config' | 'secrets' | 'dns' | 'logger'>;
  now: Date;
  contents: Map<string, Content & { compiled: ReturnType<typeof compileContent> | null; shared: Map<number, Promise<SharedMime>> }>;
  domains: Map<string, Domain>;
  keys: Map<string, Key>;
  suppressed: Map<string, string>;
  destinations: Destinations;
  onDataSent: (messageId: string) => void;
};
