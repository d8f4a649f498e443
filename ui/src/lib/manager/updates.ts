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

/** What an update changed, as the detail pane shows it: a git source's
 * commits (one line each), or the new copy's CHANGELOG.md section as
 * markdown, rendered by the chat's sanitising renderer. */
export type Changelog = { kind: "markdown"; text: string } | { kind: "commits"; lines: string[] };

/** The changelog of `u`; null when the host found none. */
export function changelogMarkdown(u: UpdateInfo, source: ExtSource | undefined): Changelog | null {
  const lines = u.changes ?? [];
  if (!lines.length) return null;
  if (source?.kind === "git") return { kind: "commits", lines };
  return { kind: "markdown", text: lines.join("\n") };
}
