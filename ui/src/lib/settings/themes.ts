// Themes (docs/protocol.md "Themes"): the built-in dark and light palettes, filling a
// theme file's missing colours from its base, and applying the result as
// CSS custom properties. Only valid hex colours ever reach the page.
import type { ThemeFile } from "../bindings/ThemeFile";

const DARK: Record<string, string> = {
  background: "#16181d",
  surface: "#1f232a",
  fg: "#e6e6e6",
  muted: "#8b949e",
  accent: "#58a6ff",
  user_bubble_bg: "#263042",
  user_bubble_fg: "#e6edf3",
  assistant: "#e6e6e6",
  tool: "#d2a8ff",
  tool_out: "#a5b1bd",
  error: "#ff7b72",
  warning: "#e3b341",
  success: "#56d364",
  selection_bg: "#264f78",
  selection_fg: "#ffffff",
};

const LIGHT: Record<string, string> = {
  background: "#ffffff",
  surface: "#f3f4f6",
  fg: "#1f2328",
  muted: "#656d76",
  accent: "#0969da",
  user_bubble_bg: "#ddf4ff",
  user_bubble_fg: "#1f2328",
  assistant: "#1f2328",
  tool: "#8250df",
  tool_out: "#57606a",
  error: "#cf222e",
  warning: "#9a6700",
  success: "#1a7f37",
  selection_bg: "#b6e3ff",
  selection_fg: "#1f2328",
};

/** The two built-ins. */
export const BUILTIN_THEMES: ThemeFile[] = [
  { name: "dark", appearance: "dark", colors: DARK },
  { name: "light", appearance: "light", colors: LIGHT },
];

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** Whether a value is a colour the spec accepts. */
export function isHexColor(v: unknown): v is string {
  return typeof v === "string" && HEX.test(v);
}

/** Every colour of a theme: its own valid ones over its base's. */
export function resolveColors(theme: ThemeFile): Record<string, string> {
  const base = theme.appearance === "light" ? LIGHT : DARK;
  const out: Record<string, string> = { ...base };
  for (const [k, v] of Object.entries(theme.colors ?? {})) {
    if (k in base && isHexColor(v)) out[k] = v;
  }
  return out;
}

/** The style properties a theme sets on the page's root: `--zot-<name>`
 * for each colour, plus `color-scheme`. */
export function themeProperties(theme: ThemeFile): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(resolveColors(theme))) out[`--zot-${k.replace(/_/g, "-")}`] = v;
  out["color-scheme"] = theme.appearance === "light" ? "light" : "dark";
  return out;
}

/** Sets the theme's properties on `el` (the page's root), and its name and
 * appearance as `data-theme` and `data-appearance`. */
export function applyTheme(el: HTMLElement, theme: ThemeFile): void {
  for (const [k, v] of Object.entries(themeProperties(theme))) el.style.setProperty(k, v);
  el.dataset.theme = theme.name;
  el.dataset.appearance = theme.appearance;
}

/** The choice that follows the OS: dark or light as the system prefers
 * (`prefers-color-scheme`), switching live. Not a theme file: a theme
 * file named "system" is shadowed by it. */
export const SYSTEM_THEME = "system";

/** The theme to apply for the user's choice `name`. */
export function resolveTheme(themes: ThemeFile[], name: string, prefersDark: boolean): ThemeFile {
  const wanted = name === SYSTEM_THEME ? (prefersDark ? "dark" : "light") : name;
  return themes.find((t) => t.name === wanted) ?? themes[0] ?? BUILTIN_THEMES[0];
}

/** Whether `name` can be chosen: "system" or a known theme. */
export function isThemeChoice(themes: ThemeFile[], name: string): boolean {
  return name === SYSTEM_THEME || themes.some((t) => t.name === name);
}

/** Built-ins first; a later theme with a taken name is shadowed. */
export function mergeThemes(extra: ThemeFile[]): ThemeFile[] {
  const out = [...BUILTIN_THEMES];
  for (const t of extra) if (t.name !== SYSTEM_THEME && !out.some((o) => o.name === t.name)) out.push(t);
  return out;
}
