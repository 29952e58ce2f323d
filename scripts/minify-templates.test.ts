import { describe, expect, it } from 'vitest';
import { minifyCss, minifyHtml } from './minify-templates.ts';

describe('template minification for the widget build', () => {
  it('squeezes CSS without changing what it selects or computes', () => {
    const css = `
      :host {
        inset-inline-end: calc(20px + env(safe-area-inset-right, 0px));
        font: 14px/1.4 var(--chat-font);
      }
      .header :focus-visible,
      :host(:dir(rtl)) .nav {
        display: none !important;
      }
      @media (max-width: 479.98px) {
        :host([open]) .panel { inset: 0; }
      }
    `;
    expect(minifyCss(css)).toBe(
      ':host{inset-inline-end:calc(20px + env(safe-area-inset-right,0px));font:14px/1.4 var(--chat-font)}' +
        '.header :focus-visible,:host(:dir(rtl)) .nav{display:none!important}' +
        '@media (max-width:479.98px){:host([open]) .panel{inset:0}}',
    );
  });

  it('turns line breaks and indentation in markup into one space, as the browser would render them', () => {
    expect(minifyHtml('<div class="a">\n    <span>x</span>\n    text  kept\n</div>')).toBe(
      '<div class="a"> <span>x</span> text  kept </div>',
    );
  });
});
