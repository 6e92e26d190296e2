// The same policy as a message's preview route sends as a header, here as the document's first
// element: nothing remote loads (no tracking pixel fires while editing) and no script runs.
const POLICY = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`;
// The author's own draft in the editor: its images load (an image block shows what it shows), nothing else does.
const POLICY_WITH_IMAGES = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data: https:">`;

/** Rendered template HTML in a frame with every sandbox restriction: an opaque origin, no scripts, no forms, no navigation. */
export function TemplatePreviewFrame({
  html,
  title = 'HTML preview',
  heightClass = 'h-[28rem]',
  widthClass = 'w-full',
  canLoadImages = false,
}: {
  canLoadImages?: boolean;
  html: string;
  title?: string;
  heightClass?: string;
  widthClass?: string;
}) {
  return (
    <iframe
      title={title}
      sandbox=""
      referrerPolicy="no-referrer"
      srcDoc={`${canLoadImages ? POLICY_WITH_IMAGES : POLICY}${html}`}
      className={`${heightClass} ${widthClass} rounded border border-slate-200 bg-white`}
    />
  );
}
