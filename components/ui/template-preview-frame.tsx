'use client';

import { useMemo, useSyncExternalStore } from 'react';

// Nothing remote loads (no tracking pixel fires, no sender learns the preview was opened) and no
// script runs. Images of this server (the media library) are ours to show; any other is hidden.
const policyFor = (origin: string | null) =>
  `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:${origin ? ` ${origin}` : ''}">`;

/** How many images the HTML would load from elsewhere than this server (blocked by the policy). */
function countRemoteImages(html: string, origin: string | null): number {
  if (typeof DOMParser === 'undefined') return 0;
  const images = new DOMParser().parseFromString(html, 'text/html').querySelectorAll('img[src]');
  let count = 0;
  for (const image of images) {
    const src = image.getAttribute('src')!.trim();
    if (src.startsWith('data:')) continue;
    try {
      if (new URL(src, 'about:blank').origin !== origin) count += 1;
    } catch {
      count += 1;
    }
  }
  return count;
}

const subscribeToNothing = () => () => {};
const clientOrigin = () => window.location.origin;
const serverOrigin = () => null;

/**
 * Rendered template HTML in a frame with every sandbox restriction: an opaque origin, no scripts, no
 * forms, no navigation; remote images hidden, with a note saying how many.
 */
export function TemplatePreviewFrame({
  html,
  title = 'HTML preview',
  heightClass = 'h-[28rem]',
  widthClass = 'w-full',
}: {
  html: string;
  title?: string;
  heightClass?: string;
  widthClass?: string;
}) {
  // Known at the first client render, so that the frame is not loaded twice (a second srcdoc while
  // the first loads can leave it blank); on the server, no image at all.
  const origin = useSyncExternalStore(subscribeToNothing, clientOrigin, serverOrigin);
  const hidden = useMemo(() => countRemoteImages(html, origin), [html, origin]);
  return (
    <div className="space-y-1">
      {hidden > 0 ? (
        <p className="text-xs text-slate-600" data-testid="remote-images-hidden">
          {hidden === 1 ? '1 remote image hidden' : `${hidden} remote images hidden`} in this preview: loading it would
          tell its server that you opened it. Recipients&apos; mail clients load it as usual.
        </p>
      ) : null}
      <iframe
        title={title}
        sandbox=""
        referrerPolicy="no-referrer"
        srcDoc={`${policyFor(origin)}${html}`}
        className={`${heightClass} ${widthClass} rounded border border-slate-200 bg-white`}
      />
    </div>
  );
}
