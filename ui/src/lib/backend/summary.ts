// An `ext_list` entry for tests and the fake backend: a ready, enabled
// global extension named `name` with nothing registered, plus `more`.
// One place, so a field added to ExtensionSummary is filled once.
import type { ExtensionSummary } from "../bindings/ExtensionSummary";

export function extensionSummary(name: string, more: Partial<ExtensionSummary> = {}): ExtensionSummary {
  return {
    name,
    scope: "global",
    dir: `/x/${name}`,
    enabled: true,
    state: "ready",
    commands: [],
    tools: [],
    shadowed: [],
    log_path: `/x/${name}.log`,
    restarts: 0,
    last_exit: null,
    health: { calls: 0, errors: 0, busy_ms: 0, log_bytes: 0 },
    sandboxed: false,
    kind: "extension",
    ...more,
  };
}
