// A strict check that HTML is made only of what markdown-it (with
// `html: false`) and highlight.js produce for ordinary markdown: a known set
// of tags, a few attributes with known values, and escaped text. HTML that
// passes needs no sanitiser, which saves DOMPurify's parse and tree walk
// (about half the cost of rendering a message). Anything else (a tag or
// attribute not listed, a link that is not http(s)/mailto, an unquoted or
// odd attribute, a comment, a stray `<` or `>`) fails, and the caller
// sanitises it as before. The check never repairs: it only says yes or no.
//
// Why passing HTML is inert: every `<` in it starts one of the tags below
// (none of which switches the parser out of its data state, as script,
// style, textarea or title would), so all else is text; attributes are
// double-quoted with no `"`, `<` or `>` inside, so none can end early or
// smuggle another; the only URL attribute is a link's href, which must
// begin with a literal `http:`, `https:` or `mailto:` scheme.

/** Tags and, per tag, the attributes each may carry with the values allowed. */
const CLASS = /^[\w+#. -]*$/;
const ALLOWED: Record<string, Record<string, RegExp>> = {
  p: {},
  br: {},
  hr: {},
  em: {},
  strong: {},
  del: {},
  s: {},
  code: { class: CLASS },
  pre: {},
  blockquote: {},
  ul: {},
  ol: { start: /^\d{1,9}$/ },
  li: {},
  a: { href: /^(?:https?:|mailto:)/i },
  h1: {},
  h2: {},
  h3: {},
  h4: {},
  h5: {},
  h6: {},
  table: {},
  thead: {},
  tbody: {},
  tr: {},
  th: {},
  td: {},
  span: { class: CLASS },
};

/** The tags, for DOMPurify's configuration (the fallback keeps the same set). */
export const ALLOWED_TAGS = Object.keys(ALLOWED);

const TEXT = /[^<>]*/y;
const TAG = /<(\/?)([a-z][a-z0-9]*)((?: [a-z]+="[^"<>]*")*)>/y;
const ATTR = / ([a-z]+)="([^"<>]*)"/g;

/** Whether `html` consists only of the allowlisted tags, attributes and
 * escaped text (so it is safe to insert without sanitising). */
export function isKnownSafe(html: string): boolean {
  let at = 0;
  while (at < html.length) {
    TEXT.lastIndex = at;
    TEXT.exec(html);
    at = TEXT.lastIndex;
    if (at >= html.length) break;
    TAG.lastIndex = at;
    const m = TAG.exec(html);
    if (!m) return false;
    at = TAG.lastIndex;
    const attrs = Object.hasOwn(ALLOWED, m[2]) ? ALLOWED[m[2]] : undefined;
    if (!attrs) return false;
    if (!m[3]) continue;
    if (m[1]) return false; // a closing tag with attributes
    const seen = new Set<string>();
    for (const a of m[3].matchAll(ATTR)) {
      const rule = Object.hasOwn(attrs, a[1]) ? attrs[a[1]] : undefined;
      if (!rule || seen.has(a[1]) || !rule.test(a[2])) return false;
      seen.add(a[1]);
    }
  }
  return true;
}
