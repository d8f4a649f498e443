// Loaded by zot into every Node extension it starts (NODE_OPTIONS=--import),
// so `import "zot-ext"` finds the SDK zot ships. A copy the extension ships
// in its own node_modules still wins: the hook only answers when Node's
// normal resolution found nothing. Node < 20.6 has no module.register; ESM
// imports then need the extension's own copy (require works through NODE_PATH).
import * as mod from "node:module";

if (typeof mod.register === "function") mod.register("./hooks.mjs", import.meta.url);
