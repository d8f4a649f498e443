// @vitest-environment jsdom
// The guard runs as its own source text inside index.html (firstScreen.ts),
// so it is tested that way too: serialised, then run in a page holding a
// first screen.
import { beforeEach, expect, test } from "vitest";
import { chosenTheme, firstScreenGuard, type FirstThemeWindow, type GuardThemes } from "./firstScreenGuard";

const themes: GuardThemes = {
  dark: { appearance: "dark", props: { "--zot-background": "#16181d", "color-scheme": "dark" } },
  light: { appearance: "light", props: { "--zot-background": "#ffffff", "color-scheme": "light" } },
};
const w = window as unknown as FirstThemeWindow;

/** Runs the guard from its source, as the page does. */
function runGuard(prefersDark = true) {
  window.matchMedia = ((q: string) => ({
    matches: q.includes("dark") && prefersDark,
  })) as typeof window.matchMedia;
  const args = [themes, "system", "panel-"].map((a) => JSON.stringify(a)).join(", ");
  new Function(`(${firstScreenGuard.toString()})(${args});`)();
}

beforeEach(() => {
  document.documentElement.removeAttribute("style");
  delete document.documentElement.dataset.theme;
  document.body.innerHTML = `<div id="app"><div class="app">first screen</div></div>`;
  delete w.__ZOT_THEME__;
  delete w.__TAURI_INTERNALS__;
});

test("the theme the window handed over is on the page's root before the script runs", () => {
  w.__ZOT_THEME__ = "light";
  runGuard();
  const root = document.documentElement;
  expect(root.style.getPropertyValue("--zot-background")).toBe("#ffffff");
  expect(root.style.getPropertyValue("color-scheme")).toBe("light");
  expect(root.dataset.theme).toBe("light");
  expect(root.dataset.appearance).toBe("light");
  expect(chosenTheme()).toBe("light");
});

test("system follows the desktop's preference", () => {
  w.__ZOT_THEME__ = "system";
  runGuard(false);
  expect(document.documentElement.dataset.theme).toBe("light");
  runGuard(true);
  expect(document.documentElement.dataset.theme).toBe("dark");
});

test("an extension's theme, no theme or a bad value leave the stylesheet's dark defaults", () => {
  for (const t of ["dusk", undefined, 42, "__proto__", "constructor"]) {
    w.__ZOT_THEME__ = t;
    runGuard();
    expect(document.documentElement.getAttribute("style")).toBeNull();
    expect(document.documentElement.dataset.theme).toBeUndefined();
  }
  // The app resolves a name it does not know to the first theme.
  expect(chosenTheme()).toBe("constructor");
  w.__ZOT_THEME__ = 42;
  expect(chosenTheme()).toBeNull();
});

test("a panel's own window loses the main window's screen; the main window keeps it", () => {
  w.__TAURI_INTERNALS__ = { metadata: { currentWebview: { label: "main" } } };
  runGuard();
  expect(document.getElementById("app")!.textContent).toBe("first screen");
  w.__TAURI_INTERNALS__ = { metadata: { currentWebview: { label: "panel-abc" } } };
  runGuard();
  expect(document.getElementById("app")!.childNodes).toHaveLength(0);
});
