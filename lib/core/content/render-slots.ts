import { randomBytes } from 'node:crypto';

const JINJA = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g;
type Kind = 'h' | 'j';

/**
 * Stand-ins for what Markdown, MJML and the text converter must not touch: Jinja tags (so that
 * `{{ first_name }}` survives escaping, URL encoding and the text converter) and HTML fragments
 * (never parsed as MJML). A token is letters and digits only, with a nonce per render.
 */
export class RenderSlots {
  private readonly nonce = randomBytes(4).toString('hex');
  private readonly values: Record<Kind, string[]> = { h: [], j: [] };

  private token(kind: Kind, value: string): string {
    this.values[kind].push(value);
    return `msq${this.nonce}${kind}${this.values[kind].length - 1}q`;
  }

  /** A token that `restoreHtml` turns back into this HTML fragment. */
  hold(html: string): string {
    return this.token('h', html);
  }

  /** The text with each Jinja tag held until `restore`. */
  holdJinja(text: string): string {
    return text.replace(JINJA, (tag) => this.token('j', tag));
  }

  /** HTML fragments back in place (fragments held inside fragments included); Jinja stays held. */
  restoreHtml(text: string): string {
    const pattern = new RegExp(`msq${this.nonce}h(\\d+)q`, 'gi');
    let result = text;
    for (let depth = 0; depth < 4 && result.search(pattern) !== -1; depth++) {
      result = result.replace(pattern, (token, index: string) => this.values.h[Number(index)] ?? token);
    }
    return result;
  }

  /** Everything back: HTML fragments, then Jinja tags. */
  restore(text: string): string {
    const pattern = new RegExp(`msq${this.nonce}j(\\d+)q`, 'gi');
    return this.restoreHtml(text).replace(pattern, (token, index: string) => this.values.j[Number(index)] ?? token);
  }
}
