import { describe, expect, it } from 'vitest';
import { withPreheader } from '@/lib/core/content/preheader';

describe('withPreheader', () => {
  it('puts the hidden preheader first in the body, escaped, Jinja kept for substitution', () => {
    const html = withPreheader('<html><body class="x"><p>Body</p></body></html>', '<b>Hi</b> {{ first_name }} & co')!;
    expect(html).toMatch(/^<html><body class="x"><div style="display:none;[^"]*mso-hide:all" data-preheader>/);
    expect(html).toContain('&lt;b&gt;Hi&lt;/b&gt; {{ first_name }} &amp; co&#847;&zwnj;&nbsp;');
    expect(html.indexOf('data-preheader')).toBeLessThan(html.indexOf('<p>Body</p>'));
  });

  it('starts a body-less fragment with it, and leaves HTML alone without a preheader or without HTML', () => {
    expect(withPreheader('<p>x</p>', 'Hi')).toMatch(/^<div [^>]*data-preheader>Hi/);
    expect(withPreheader('<p>x</p>', null)).toBe('<p>x</p>');
    expect(withPreheader('<p>x</p>', '  ')).toBe('<p>x</p>');
    expect(withPreheader(null, 'Hi')).toBeNull();
  });
});
