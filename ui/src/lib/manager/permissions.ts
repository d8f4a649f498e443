// How a card shows an extension's permissions: the granted names (the
// plain words live in the host, `zot_ext_host::permission_words`, and come
// with the install summary and the review dialog), what was refused, and
// what changed since the user accepted it.
import type { PermissionGrant } from "../bindings/PermissionGrant";
import type { Widening } from "../bindings/Widening";

/** "unrestricted", "none", or the granted names. */
export function grantLine(grant: PermissionGrant | undefined): string {
  if (grant === undefined || grant === "unrestricted") return "unrestricted (declares no permissions)";
  return grant.length ? grant.join(", ") : "none";
}

/** "submit 3, notes 1", or "" when nothing was refused. */
export function refusedLine(refused: Record<string, number> | undefined): string {
  return Object.entries(refused ?? {})
    .filter(([, n]) => n > 0)
    .map(([p, n]) => `${p} ${n}`)
    .join(", ");
}

/**
 * What changed since the user accepted the extension, one line each in the
 * host's words (`zot_ext_host::widening`): a removed or wider sandbox, a
 * new program, arguments, environment or URL, new permissions. A backend
 * older than `widened` sends the permission words only.
 */
export function changeLines(ext: {
  widened?: Widening[];
  unaccepted_words?: string[];
  unaccepted?: string[];
}): string[] {
  if (ext.widened?.length) return ext.widened.map((w) => w.words);
  return ext.unaccepted_words ?? ext.unaccepted ?? [];
}

/** Whether the extension waits for the user to accept a change. */
export function needsReview(ext: { widened?: Widening[]; unaccepted?: string[] }): boolean {
  return changeLines(ext).length > 0;
}
