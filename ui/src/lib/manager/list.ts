// The manager's list as plain data: every installed extension and every
// catalog entry as one row, filtered by the search box and the view
// (all, installed, available, updates), in the order the list shows them
// (installed first, then the catalog), and the key moves of the listbox.
import type { ExtensionSummary } from "../bindings/ExtensionSummary";
import type { UpdateInfo } from "../bindings/UpdateInfo";
import type { CatalogRow } from "./catalog";

/** Which rows the list shows. */
export type ListView = "all" | "installed" | "available" | "updates";

/** One row: an installed extension, or an entry of zot's catalog. */
export type ListRow =
  | { key: string; kind: "installed"; name: string; ext: ExtensionSummary; update?: UpdateInfo }
  | { key: string; kind: "catalog"; name: string; entry: CatalogRow };

/** The key of an installed extension's row: scope and name, since a
 * project's extension may shadow a global one of the same name. */
export function installedKey(ext: { scope: string; name: string }): string {
  return `installed:${ext.scope}:${ext.name}`;
}

/** The key of a catalog entry's row. */
export function catalogKey(name: string): string {
  return `catalog:${name}`;
}

/** Whether `row` matches every word of `query` (name, description, what
 * it adds), case-insensitively. */
export function matches(row: ListRow, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const hay = (
    row.kind === "installed"
      ? [
          row.name,
          row.ext.description ?? "",
          ...row.ext.commands.map((c) => "/" + c.name),
          ...row.ext.tools.map((t) => t.name),
          row.ext.state,
        ]
      : [row.name, row.entry.description, row.entry.registers]
  )
    .join(" ")
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}

/** The rows of `view` that match `query`, installed ones first. */
export function listRows(
  extensions: ExtensionSummary[],
  catalog: CatalogRow[],
  updates: UpdateInfo[],
  view: ListView,
  query: string,
): ListRow[] {
  const installed: ListRow[] = extensions.map((ext) => ({
    key: installedKey(ext),
    kind: "installed",
    name: ext.name,
    ext,
    update: updates.find((u) => u.name === ext.name),
  }));
  const available: ListRow[] = catalog.map((entry) => ({
    key: catalogKey(entry.name),
    kind: "catalog",
    name: entry.name,
    entry,
  }));
  const rows =
    view === "installed"
      ? installed
      : view === "available"
        ? available
        : view === "updates"
          ? installed.filter((r) => r.kind === "installed" && r.update)
          : [...installed, ...available];
  return rows.filter((r) => matches(r, query));
}

/** Where a listbox key moves the active row (`-1` when nothing is
 * active); `null` for a key the list does not handle. */
export function moveActive(key: string, at: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return at < 0 ? 0 : Math.min(at + 1, count - 1);
    case "ArrowUp":
      return at < 0 ? count - 1 : Math.max(at - 1, 0);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    case "PageDown":
      return Math.min(Math.max(at, 0) + 10, count - 1);
    case "PageUp":
      return Math.max(at - 10, 0);
    default:
      return null;
  }
}

/** The badge of an installed extension's row: its state, or "needs
 * setup" when its program is missing (the host's `setup` step). */
export function badgeOf(ext: { state: string; setup?: string }, stateLabel: string): string {
  return ext.setup ? "needs setup" : stateLabel;
}
