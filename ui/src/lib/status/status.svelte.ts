// Temporary status lines above the editor: the /reload-ext report (each
// load error in red) that dismisses itself after 5 s, and short messages.
import type { ReloadError } from "../bindings/ReloadError";

/** One temporary status. */
export interface Status {
  id: number;
  text: string;
  level: "info" | "error";
  errors: ReloadError[];
}

/** How long a temporary status stays. */
export const STATUS_MS = 5000;

/** Reactive temporary statuses. */
export class StatusState {
  items: Status[] = $state([]);
  #next = 1;

  /** Shows a status for `ms`, then drops it. */
  show(text: string, level: "info" | "error" = "info", errors: ReloadError[] = [], ms = STATUS_MS): void {
    const id = this.#next++;
    this.items.push({ id, text, level, errors });
    setTimeout(() => this.dismiss(id), ms);
  }

  /** Drops one status. */
  dismiss(id: number): void {
    this.items = this.items.filter((s) => s.id !== id);
  }
}
