import type { CoreConfig } from '@/lib/core/config';
import type { mediaFiles } from '@/lib/db/schema';

/** A row without its bytes: what lists and metadata read. */
export type MediaRow = Omit<typeof mediaFiles.$inferSelect, 'content'>;

/** The public address of a file: PUBLIC_URL, `/media/`, the opaque id and the detected type's extension. */
export function mediaUrl(config: Pick<CoreConfig, 'publicUrl'>, row: Pick<MediaRow, 'id' | 'extension'>): string {
  return `${config.publicUrl.origin}${config.publicUrl.pathname.replace(/\/+$/, '')}/media/${row.id}.${row.extension}`;
}

export function presentMedia(config: Pick<CoreConfig, 'publicUrl'>, row: MediaRow) {
  return {
    object: 'media' as const,
    id: row.id,
    name: row.name,
    content_type: row.contentType,
    size_bytes: row.sizeBytes,
    width: row.width,
    height: row.height,
    url: mediaUrl(config, row),
    created_at: row.createdAt.toISOString(),
  };
}

export type MediaObject = ReturnType<typeof presentMedia>;
