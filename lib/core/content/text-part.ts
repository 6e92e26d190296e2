import { compile, type HtmlToTextOptions } from 'html-to-text';

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
  selector,
  options: { uppercase: false },
}));
// Upper-casing would turn `{{ first_name }}` into another variable; images carry no text worth a line.
const OPTIONS: HtmlToTextOptions = {
  wordwrap: 78,
  selectors: [
    ...HEADINGS,
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
  ],
};

const convert = compile(OPTIONS);

/** The plain-text part of an HTML body: what a reader of the HTML would read, links with their targets. */
export function textFromHtml(html: string): string {
  return convert(html)
    .replace(/[ \t\u00a0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
