import type { Services } from '@/lib/core/context';
import type { SharedMime } from '@/lib/core/messages/build-mime';
import type { RenderedContent } from '@/lib/core/messages/render-content';
import type { Db } from '@/lib/db/client';
import type { dkimKeys, domains, messageContents } from '@/lib/db/schema';
import type { ClaimedMessage } from './claim-due-messages';
import type { Destinations } from './destinations';
import type { MailBuilder } from './mail-builder';
import type { Outcome } from './outcome';
import type { WarmupGate } from './warmup-gate';

type Content = typeof messageContents.$inferSelect;
type Domain = typeof domains.$inferSelect;
type Key = typeof dkimKeys.$inferSelect;

/** An encoding the recipients of one content share (by Date), with its DKIM body hash; null when it cannot be shared. */
export type SharedEncoding = (NonNullable<SharedMime> & { bodyHash: string }) | null;
export type BatchContents = Map<string, Content & { shared: Map<number, Promise<SharedEncoding>> }>;

/** What a batch shares: contents, domains, keys and suppressions, each loaded once, and the templated messages rendered. */
export type BatchContext = {
  db: Db;
  services: Pick<Services, 'config' | 'secrets' | 'dns' | 'logger' | 'renderer'>;
  now: Date;
  contents: BatchContents;
  /** Rendered parts (or the failure) of each templated message, by message id. */
  rendered: Map<string, RenderedContent>;
  domains: Map<string, Domain>;
  keys: Map<string, Key>;
  suppressed: Map<string, string>;
  destinations: Destinations;
  /** Composes and signs each message, on this thread or a pool of threads. */
  mail: MailBuilder;
  onDataSent: (messageId: string) => void;
  /** Holds the excess of warming domains (warmup-gate.ts); without it, no plan applies. */
  warmup?: WarmupGate;
  /** Records an outcome durably (lib/mail/outcome-writer.ts); resolves once it is committed. */
  recordOutcome: (message: ClaimedMessage, outcome: Outcome) => Promise<void>;
};
