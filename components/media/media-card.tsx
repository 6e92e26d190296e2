import type { ReactNode } from 'react';
import { formatBytes } from '@/lib/client/format';
import type { MediaObject } from '@/lib/client/media-queries';

const TYPE_LABELS: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
};

/** What a reader wants to know of an image at a glance: type, pixels and size. */
export const describeMedia = (media: MediaObject) =>
  `${TYPE_LABELS[media.content_type] ?? media.content_type} · ${media.width}×${media.height} · ${formatBytes(media.size_bytes)}`;

/** One image of the library: its thumbnail, name and facts, and whatever actions the caller puts under it. */
export function MediaCard({ media, children }: { media: MediaObject; children?: ReactNode }) {
  return (
    <li className="flex min-w-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="flex h-32 items-center justify-center bg-slate-100">
        {/* Decorative here: the name is right below it. */}
        <img src={media.url} alt="" loading="lazy" className="max-h-full max-w-full object-contain" />
      </div>
      <div className="min-w-0 flex-1 space-y-1 px-3 py-2">
        <p className="truncate text-sm font-medium text-slate-900" title={media.name}>
          {media.name}
        </p>
        <p className="text-xs text-slate-600">{describeMedia(media)}</p>
      </div>
      {children ? <div className="flex flex-wrap gap-2 border-t border-slate-100 px-3 py-2">{children}</div> : null}
    </li>
  );
}
