// How a card shows an extension's permissions: the granted names (the
// plain words live in the host, `zot_ext_host::permission_words`, and come
// with the install summary and the review dialog) and what was refused.
import type { PermissionGrant } from "../bindings/PermissionGrant";

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
