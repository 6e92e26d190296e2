/** The preheader as an inbox shows it after the subject: the hidden text at the top of rendered HTML. */
export function preheaderOf(html: string | null | undefined): string | null {
  if (!html || typeof DOMParser === 'undefined') return null;
  const element = new DOMParser().parseFromString(html, 'text/html').querySelector('[data-preheader]');
  return element?.textContent?.replace(/[\u034f\u200c\u00a0]/g, '').trim() || null;
}
