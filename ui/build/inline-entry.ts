// A Vite build plugin: puts the entry script and its stylesheet inside
// index.html instead of linking them. In the app every linked file is one
// more request through WebKit's custom-scheme handler to the app's main
// thread, which is busiest exactly while the window starts; the first
// paint waited on both. Chunks loaded on demand (the markdown renderer)
// stay separate files. Inline scripts are allowed by the strict CSP
// because Tauri adds their hashes to it at compile time.
import type { Plugin, Rollup } from "vite";

type OutputAsset = Rollup.OutputAsset;
type OutputChunk = Rollup.OutputChunk;

/** `</script` or `</style` inside inlined text would end the element. */
const safe = (text: string, tag: string) => text.replace(new RegExp(`</(${tag})`, "gi"), "<\\/$1");

export function inlineEntry(): Plugin {
  return {
    name: "zot-inline-entry",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const html = Object.values(bundle).find(
        (f): f is OutputAsset => f.type === "asset" && f.fileName === "index.html",
      );
      const entry = Object.values(bundle).find((f): f is OutputChunk => f.type === "chunk" && f.isEntry);
      if (!html || !entry) return;
      if (entry.imports.length) {
        // Static imports of other chunks would resolve against the page's
        // URL once inlined; keep such a build as it was.
        this.warn(`not inlining ${entry.fileName}: it imports ${entry.imports.join(", ")}`);
        return;
      }
      const dir = entry.fileName.slice(0, entry.fileName.lastIndexOf("/") + 1);
      // Chunks it loads on demand are named relative to its own folder.
      let code = entry.code;
      for (const dynamic of entry.dynamicImports) {
        const name = dynamic.slice(dir.length);
        code = code.split(`./${name}`).join(`./${dynamic}`);
      }
      let page = String(html.source);
      const script = new RegExp(`<script type="module"[^>]*src="\\./${entry.fileName}"[^>]*></script>`);
      if (!script.test(page)) return this.warn(`index.html does not load ${entry.fileName}; nothing inlined`);
      page = page.replace(script, () => `<script type="module">${safe(code, "script")}</script>`);
      delete bundle[entry.fileName];
      for (const css of entry.viteMetadata?.importedCss ?? []) {
        const asset = bundle[css];
        const link = new RegExp(`<link rel="stylesheet"[^>]*href="\\./${css}"[^>]*>`);
        if (asset?.type !== "asset" || !link.test(page)) continue;
        page = page.replace(link, () => `<style>${safe(String(asset.source), "style")}</style>`);
        delete bundle[css];
      }
      html.source = page;
    },
  };
}
