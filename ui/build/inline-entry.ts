// A Vite build plugin: puts the entry script and its stylesheet inside
// index.html instead of linking them. In the app every linked file is one
// more request through WebKit's custom-scheme handler to the app's main
// thread, which is busiest exactly while the window starts; the first
// paint waited on both. Chunks loaded on demand (the markdown renderer)
// stay separate files. Inline scripts are allowed by the strict CSP
// because Tauri adds their hashes to it at compile time.
//
// It works on the files as written (`writeBundle`): Vite fills in parts
// of the entry's code (its preload list) late in `generateBundle`, so the
// code seen there is not yet final.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin, Rollup } from "vite";

/** `</script` or `</style` inside inlined text would end the element. */
const safe = (text: string, tag: string) => text.replace(new RegExp(`</(${tag})`, "gi"), "<\\/$1");

/** With `script: false` only the stylesheet moves into the page and the
 * entry script stays a file: a page whose first screen is prerendered
 * (build/prerender.ts) paints it without the script, so the script is
 * better fetched alongside than parsed as part of the HTML. */
export function inlineEntry({ script: withScript = true } = {}): Plugin {
  return {
    name: "zot-inline-entry",
    apply: "build",
    enforce: "post",
    writeBundle(options, bundle) {
      const out = options.dir;
      const entry = Object.values(bundle).find(
        (f): f is Rollup.OutputChunk => f.type === "chunk" && f.isEntry,
      );
      if (!out || !entry || !bundle["index.html"]) return;
      const htmlPath = join(out, "index.html");
      let page = readFileSync(htmlPath, "utf8");
      const inlined: string[] = [];
      if (withScript) {
        const code = entryCode(this, out, entry, bundle, page);
        if (code === null) return;
        const script = scriptTag(entry.fileName);
        page = page.replace(script, () => `<script type="module">${safe(code, "script")}</script>`);
        inlined.push(entry.fileName);
      }
      for (const css of entry.viteMetadata?.importedCss ?? []) {
        const link = new RegExp(`<link rel="stylesheet"[^>]*href="\\./${css}"[^>]*>`);
        if (!link.test(page)) continue;
        const text = readFileSync(join(out, css), "utf8");
        page = page.replace(link, () => `<style>${safe(text, "style")}</style>`);
        inlined.push(css);
      }
      writeFileSync(htmlPath, page);
      for (const file of inlined) rmSync(join(out, file));
    },
  };
}

const scriptTag = (fileName: string) =>
  new RegExp(`<script type="module"[^>]*src="\\./${fileName}"[^>]*></script>`);

/** The entry's code ready to sit in the page, or null (with a warning) when
 * it cannot be inlined and the build stays as it was. */
function entryCode(
  ctx: { warn: (msg: string) => void },
  out: string,
  entry: Rollup.OutputChunk,
  bundle: Rollup.OutputBundle,
  page: string,
): string | null {
  if (entry.imports.length) {
    // Static imports of other chunks would resolve against the page's
    // URL once inlined; keep such a build as it was.
    ctx.warn(`not inlining ${entry.fileName}: it imports ${entry.imports.join(", ")}`);
    return null;
  }
  const importers = Object.values(bundle).filter(
    (f): f is Rollup.OutputChunk => f.type === "chunk" && f.imports.includes(entry.fileName),
  );
  if (importers.length) {
    // A lazy chunk that shares code with the entry imports it by file
    // name; once the entry is inlined and deleted that import fails and
    // the chunk never loads (the markdown renderer did, when the tool
    // cards pulled highlight.js into the entry). Keep the file.
    ctx.warn(`not inlining ${entry.fileName}: ${importers.map((c) => c.fileName).join(", ")} import it`);
    return null;
  }
  if (!scriptTag(entry.fileName).test(page)) {
    ctx.warn(`index.html does not load ${entry.fileName}; nothing inlined`);
    return null;
  }
  // Chunks it loads on demand are named relative to its own folder.
  const dir = entry.fileName.slice(0, entry.fileName.lastIndexOf("/") + 1);
  let code = readFileSync(join(out, entry.fileName), "utf8");
  for (const dynamic of entry.dynamicImports) {
    code = code.split(`./${dynamic.slice(dir.length)}`).join(`./${dynamic}`);
  }
  return code;
}
