// The attribute the page's loader (build/prerender.ts) sets on a stylesheet
// link once it has loaded or failed, and stylesheets.ts reads: a link that
// failed has no `sheet` and fires nothing more, so without the mark it
// could not be told from one still loading. Its own file, free of DOM
// types, because the build's code imports it too.
export const SETTLED_ATTR = "data-zot-settled";
