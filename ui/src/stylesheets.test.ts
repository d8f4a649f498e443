// @vitest-environment jsdom
// The app waits for the whole stylesheet the loader added after the first
// paint (build/critical-css.ts): until it loaded or failed, never longer.
import { expect, test } from "vitest";
import { SETTLED_ATTR } from "./stylesheetMark";
import { stylesheetsLoaded } from "./stylesheets";

const settled = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setTimeout(r, 0));
  return done;
};

const link = (attrs = "") => {
  document.head.insertAdjacentHTML("beforeend", `<link rel="stylesheet" href="./x.css" ${attrs}>`);
  return document.head.lastElementChild as HTMLLinkElement;
};

test("no stylesheet link: nothing to wait for", async () => {
  document.head.replaceChildren();
  expect(await settled(stylesheetsLoaded())).toBe(true);
});

test("a link still loading is waited for, until its load or its error", async () => {
  for (const event of ["load", "error"]) {
    document.head.replaceChildren();
    const l = link();
    const p = stylesheetsLoaded();
    expect(await settled(p)).toBe(false);
    l.dispatchEvent(new Event(event));
    expect(await settled(p)).toBe(true);
  }
});

test("a link the loader marked settled (a failed one has no sheet and fires nothing more) is not waited for", async () => {
  document.head.replaceChildren();
  link(SETTLED_ATTR);
  expect(await settled(stylesheetsLoaded())).toBe(true);
});
