// The same policy as a message's preview route sends as a header, here as the document's first
// element: nothing remote loads (no tracking pixel fires while editing) and no script runs.
const POLICY = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`;

/** Rendered template HTML in a frame with every sandbox restriction: an opaque origin, no scripts, no forms, no navigation. */
export function TemplatePreviewFrame({ html, title = 'HTML preview' }: { html: string; title?: string }) {
  return <iframe title={title} sandbox="" referrerPolicy="no-referrer" srcDoc={`${POLICY}${html}`} className="h-[28rem] w-full rounded border border-slate-200 bg-white" />;
}
