// The host context an MCP App gets with `ui/initialize` (docs/mcp.md "MCP
// Apps"): zot's theme as the MCP Apps standard style variables, the
// display mode (inline only) and the card's size limits.

import { MAX_HEIGHT } from "./appHost";

/** MCP Apps style variable ← the zot theme variable it is read from. */
export const STYLE_MAP: Record<string, string> = {
  "--color-background-primary": "--zot-background",
  "--color-background-secondary": "--zot-surface",
  "--color-text-primary": "--zot-fg",
  "--color-text-secondary": "--zot-muted",
  "--color-border-primary": "--zot-border",
  "--color-text-danger": "--zot-error",
  "--color-text-success": "--zot-success",
  "--color-text-warning": "--zot-warning",
  "--color-text-info": "--zot-accent",
  "--color-ring-primary": "--zot-accent",
};

/** The style variables, from `read` (a theme variable's value, "" when unset). */
export function styleVariables(read: (name: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [mcp, zot] of Object.entries(STYLE_MAP)) {
    const v = read(zot).trim();
    if (v) out[mcp] = v;
  }
  return out;
}

/** The whole host context for a card `width` pixels wide. */
export function hostContext(
  read: (name: string) => string,
  scheme: string,
  width: number,
): Record<string, unknown> {
  return {
    theme: scheme.includes("light") ? "light" : "dark",
    styles: { variables: styleVariables(read) },
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    containerDimensions: { width: Math.round(width), maxHeight: MAX_HEIGHT },
    locale: typeof navigator === "undefined" ? "en" : navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: "zot",
    platform: "desktop",
  };
}
