// The page's whole stylesheet comes after its first paint: the HTML holds
// only the rules its prerendered first screen uses, and the page's loader
// adds the stylesheet link with the app's script (build/critical-css.ts,
// build/prerender.ts). Anything the app draws beyond that screen needs the
// rest, so the app waits for it before hydrating or mounting. It is a
// tenth of the script's size and fetched beside it, so the wait is nearly
// always over already.

import { SETTLED_ATTR } from "./stylesheetMark";

/** Resolves once every stylesheet link in `doc` has loaded or failed. A
 * failed one leaves the page as styled as it can be: waiting longer would
 * only leave the app dead. */
export function stylesheetsLoaded(doc: Document = document): Promise<void> {
  const pending = [...doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter(
    (link) => !link.sheet && !link.hasAttribute(SETTLED_ATTR),
  );
  return Promise.all(
    pending.map(
      (link) =>
        new Promise<void>((resolve) => {
          link.addEventListener("load", () => resolve(), { once: true });
          link.addEventListener("error", () => resolve(), { once: true });
        }),
    ),
  ).then(() => undefined);
}
