// The resolve hook registered by register.mjs: `zot-ext` falls back to the
// copy zot unpacked beside this file when the extension has none.
const SDK = new URL("./node_modules/zot-ext/dist/index.js", import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier !== "zot-ext") return next(specifier, context);
  try {
    return await next(specifier, context);
  } catch (e) {
    if (e && e.code === "ERR_MODULE_NOT_FOUND") return { url: SDK, format: "module", shortCircuit: true };
    throw e;
  }
}
