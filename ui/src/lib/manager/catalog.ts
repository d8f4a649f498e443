// The manager's "Available" section as plain data: the catalog entries zot
// ships, in the order a user scans them (installable first, then installed,
// then unavailable with the reason), each with one line on what it adds.
import type { CatalogEntry } from "../bindings/CatalogEntry";

/** How one catalog entry is shown. */
export interface CatalogRow {
  name: string;
  version: string;
  description: string;
  /** `/todo, tool todo_manage, panel todos-main`, or "" when nothing. */
  registers: string;
  /** What it may do, in the host's words (the install summary's), one line each. */
  permissions: string[];
  status: "available" | "installed" | "unavailable";
  /** Why it cannot be installed, when it cannot. */
  reason: string | null;
  /** Who signed it ("signed by zot", …, "unsigned"); null when it is unavailable. */
  signer: string | null;
}

/** What an entry registers, as one line. */
export function registersText(e: CatalogEntry): string {
  const r = e.registers;
  return [
    ...r.commands.map((c) => `/${c}`),
    ...r.tools.map((t) => `tool ${t}`),
    ...r.panels.map((p) => `panel ${p}`),
    ...r.themes.map((t) => `theme ${t}`),
  ].join(", ");
}

const order = { available: 0, installed: 1, unavailable: 2 } as const;

/** The rows of the "Available" section, sorted by status then name. */
export function catalogRows(entries: CatalogEntry[]): CatalogRow[] {
  return entries
    .map((e): CatalogRow => {
      const status = !e.available ? "unavailable" : e.installed ? "installed" : "available";
      return {
        name: e.name,
        version: e.version ?? "",
        description: e.description,
        registers: registersText(e),
        permissions: e.permissions,
        status,
        reason: e.available ? null : (e.unavailable_reason ?? "it cannot be installed"),
        signer: e.signer ?? null,
      };
    })
    .sort((a, b) => order[a.status] - order[b.status] || a.name.localeCompare(b.name));
}
