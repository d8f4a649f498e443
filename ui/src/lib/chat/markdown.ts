// Renders model text as markdown. Two independent guards keep model or
// extension HTML from ever becoming markup:
//  1. markdown-it runs with `html: false`, so raw HTML in the source is
//     escaped to text, and its link validator refuses javascript:/data: URLs;
//  2. the result must then pass a strict allowlist check (safehtml.ts: only
//     the handful of tags and attributes that markdown itself produces, and
//     only http(s)/mailto link targets), or else DOMPurify, configured to
//     that same allowlist, sanitises it.
// Either alone would do; both together survive a bug in one of them. The
// check is a string scan, so ordinary messages skip DOMPurify's parse and
// tree walk, which was half the cost of rendering one.
import MarkdownIt from "markdown-it";
import DOMPurify from "dompurify";
import hljs from "highlight.js/lib/common";
import { ALLOWED_TAGS, isKnownSafe } from "./safehtml";

const md = new MarkdownIt({
  html: false,
  linkify: false,
  breaks: false,
  typographer: false,
  highlight(code: string, lang: string): string {
    try {
      if (lang && hljs.getLanguage(lang)) {
        return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
      }
    } catch {
      // Fall through to plain escaping.
    }
    return escapeHtml(code);
  },
});

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** highlight.js language for a path's extension, if it knows one. */
export function languageFor(path: string): string | undefined {
  const m = /\.([A-Za-z0-9_+-]+)$/.exec(path);
  const ext = m?.[1]?.toLowerCase();
  return ext && hljs.getLanguage(ext) ? ext : undefined;
}

/** One line of the file at `path` as HTML for a tool card's diff:
 * highlight.js output (which escapes) by the file's extension, or escaped
 * text. highlight.js lives here, in the lazily loaded renderer, so the
 * tool cards do not pull it into the start-up bundle. */
export function highlightLine(text: string, path: string): string {
  const lang = languageFor(path);
  if (lang) {
    try {
      return hljs.highlight(text, { language: lang, ignoreIllegals: true }).value;
    } catch {
      // Plain text below.
    }
  }
  return md.utils.escapeHtml(text);
}

/** Markdown to sanitised HTML. Safe to pass to `{@html}`. */
export function renderMarkdown(source: string): string {
  const html = md.render(source);
  return isKnownSafe(html) ? html : sanitise(html);
}

/** DOMPurify's options, set once: passing them on every call made it
 * re-parse them each time (about a third of its cost per message). */
DOMPurify.setConfig({
  ALLOWED_TAGS,
  ALLOWED_ATTR: ["href", "class", "start", "align"],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  RETURN_TRUSTED_TYPE: false,
});

/** Keeps only markdown's own tags; drops every event handler, style and
 * script-capable URL. Exposed for tests and for defence in depth. */
export function sanitise(html: string): string {
  return DOMPurify.sanitize(html) as string;
}

/** How many finished messages' HTML `renderMarkdownCached` keeps. */
const CACHE_SIZE = 500;
const cache = new Map<string, string>();

/** `renderMarkdown` for finished messages, remembering the last CACHE_SIZE
 * results (least recently used goes first), so a row that scrolls out of
 * the virtual list and back is not parsed and highlighted again. */
export function renderMarkdownCached(source: string): string {
  const hit = cache.get(source);
  if (hit !== undefined) {
    cache.delete(source);
    cache.set(source, hit);
    return hit;
  }
  const html = renderMarkdown(source);
  cache.set(source, html);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return html;
}
