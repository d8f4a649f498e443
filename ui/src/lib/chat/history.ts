// Editor history: Up/Down walk through sent prompts; the draft being typed
// is kept and comes back after the newest entry.

/** A cursor over a list of past entries. */
export class HistoryCursor {
  #index: number | null = null;
  #draft = "";

  /** Older entry, or `null` when there is none. */
  prev(entries: string[], current: string): string | null {
    if (entries.length === 0) return null;
    if (this.#index === null) {
      this.#draft = current;
      this.#index = entries.length - 1;
    } else if (this.#index > 0) this.#index--;
    else return null;
    return entries[this.#index];
  }

  /** Newer entry, then the draft; `null` when not browsing. */
  next(entries: string[]): string | null {
    if (this.#index === null) return null;
    if (this.#index < entries.length - 1) {
      this.#index++;
      return entries[this.#index];
    }
    this.#index = null;
    return this.#draft;
  }

  /** Stops browsing (after a send). */
  reset(): void {
    this.#index = null;
    this.#draft = "";
  }
}
