// What the page runs while it is parsed, right after the prerendered first
// screen (firstScreen.ts writes this function's source into index.html, so
// it must stay self-contained: no imports, nothing from outside its
// arguments but the page's globals). Before anything is painted it
//   - applies the theme the user chose, which zot's window hands the page
//     before any of its scripts run (`window.__ZOT_THEME__`, set by the
//     Rust side: src-tauri/src/desktop/first_theme.rs), when it is a
//     built-in one or "system"; other themes come with the app's settings,
//     as before;
//   - removes the main window's screen from windows that draw something
//     else (a panel's own window: main.ts).

/** The built-in themes' root properties, by name (themes.ts). */
export type GuardThemes = Record<string, { appearance: string; props: Record<string, string> }>;

/** Where the Rust side puts the user's theme for the page's first paint. */
export interface FirstThemeWindow {
  __ZOT_THEME__?: unknown;
  __TAURI_INTERNALS__?: { metadata?: { currentWebview?: { label?: string } } };
}

export function firstScreenGuard(themes: GuardThemes, system: string, panelPrefix: string): void {
  const w = window as unknown as FirstThemeWindow;
  const root = document.documentElement;
  const chosen = typeof w.__ZOT_THEME__ === "string" ? w.__ZOT_THEME__ : "";
  const name =
    chosen === system ? (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light") : chosen;
  const theme = Object.prototype.hasOwnProperty.call(themes, name) ? themes[name] : undefined;
  if (theme) {
    for (const k of Object.keys(theme.props)) root.style.setProperty(k, theme.props[k]);
    root.dataset.theme = name;
    root.dataset.appearance = theme.appearance;
  }
  const label = w.__TAURI_INTERNALS__?.metadata?.currentWebview?.label ?? "";
  if (label.startsWith(panelPrefix)) document.getElementById("app")?.replaceChildren();
}

/** The theme the user chose, as the window handed it to the page (null in
 * a plain browser or an older binary): the app starts from it, so its
 * first theme effect does not undo what the guard painted. */
export function chosenTheme(): string | null {
  const t = (window as unknown as FirstThemeWindow).__ZOT_THEME__;
  return typeof t === "string" && t ? t : null;
}
