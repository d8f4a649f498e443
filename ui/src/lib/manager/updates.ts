// What the manager says about where an extension came from and what an
// update would change (docs/rpc.md "Extension updates and bundles").
import type { ExtSource } from "../bindings/ExtSource";
import type { UpdateInfo } from "../bindings/UpdateInfo";

/** The card's "from …" line; null when nothing was recorded. */
export function sourceLine(source: ExtSource | undefined): string | null {
  if (!source) return null;
  const short = source.revision ? source.revision.slice(0, 12) : null;
  switch (source.kind) {
    case "git":
      return `from ${source.location}${short ? ` @ ${short}` : ""}`;
    case "catalog":
      return `from zot's catalog (${source.location})`;
    case "bundle":
    case "mcpb":
      return `from the bundle ${source.location}${short ? ` (${short})` : ""}`;
    default:
      return `from the folder ${source.location}`;
  }
}

/** `1.0.0 → 1.1.0`. */
export function updateLine(u: UpdateInfo): string {
  return `${u.from} → ${u.to}`;
}

/** The update for `name`, if one is known. */
export function updateFor(updates: UpdateInfo[], name: string): UpdateInfo | undefined {
  return updates.find((u) => u.name === name);
}
