// HTML panels' frames, as plain logic: where a frame loads its page from,
// the theme it is handed, how a message from it is told apart from the
// bootstrap's own (src-tauri/src/panel_page.rs), and the bounds on
// messages both ways (docs/extensions.md "HTML panels").

/** The largest message either way, serialised (256 KiB), as the backend's. */
export const MAX_MESSAGE = 256 * 1024;
/** Messages from one page on their way to its extension; beyond it the
 * page's newer messages are dropped and counted. */
export const MAX_IN_FLIGHT = 256;
/** Messages for one page held until its frame has loaded. */
export const MAX_HELD = 256;

/** A fresh token naming one page on the `zotpanel:` scheme. */
export function frameToken(): string {
  return crypto.randomUUID();
}

/** The URL a frame loads its page from: `zotpanel://localhost/<token>`
 * (macOS, Linux); Windows' webview serves custom schemes as
 * `http://zotpanel.localhost/`. */
export function frameUrl(token: string, windows = /Windows/.test(navigator.userAgent)): string {
  return windows ? `http://zotpanel.localhost/${token}` : `zotpanel://localhost/${token}`;
}

/** The theme's colours (`--zot-*`) and colour scheme set on `el`, as CSS
 * declarations for the page's `:root`. */
export function themeDeclarations(el: HTMLElement): string {
  const st = el.style;
  let out = "";
  for (let i = 0; i < st.length; i++) {
    const name = st[i];
    if (name.startsWith("--zot-") || name === "color-scheme")
      out += `${name}: ${st.getPropertyValue(name).trim()};`;
  }
  return out;
}

/** What a frame posted: a key the bootstrap forwards to the window, or the
 * page's own message for its extension. */
export type FrameMessage =
  { kind: "key"; key: "F6" | "Escape"; shift: boolean } | { kind: "page"; data: unknown };

/** Sorts what a frame posted (the reserved `zot:frame` marker is the
 * bootstrap's; a page that forges it can only move the keyboard). */
export function frameMessage(data: unknown): FrameMessage {
  if (data && typeof data === "object" && (data as Record<string, unknown>)["zot:frame"] === "key") {
    const d = data as { key?: unknown; shift?: unknown };
    if (d.key === "F6" || d.key === "Escape") return { kind: "key", key: d.key, shift: d.shift === true };
  }
  return { kind: "page", data };
}

/** Serialises a page's message for its extension; `null` when it is not
 * JSON (a function, a cycle) or is over {@link MAX_MESSAGE}, with why. */
export function encodeMessage(data: unknown): { ok: true; json: unknown } | { ok: false; why: string } {
  let text: string | undefined;
  try {
    text = JSON.stringify(data);
  } catch {
    return { ok: false, why: "it is not JSON (a cycle or a value JSON cannot hold)" };
  }
  if (text === undefined) return { ok: false, why: "it is not JSON (undefined or a function)" };
  if (text.length > MAX_MESSAGE)
    return { ok: false, why: `it is ${text.length} bytes, over the limit of ${MAX_MESSAGE} bytes (256 KiB)` };
  return { ok: true, json: JSON.parse(text) };
}

/** Counts what is dropped, to be said once per burst: drops add up
 * quietly, and the burst's total is taken when it is over. */
export class DropCount {
  #burst = 0;
  #total = 0;

  /** One more dropped. */
  hit(): void {
    this.#burst++;
    this.#total++;
  }

  /** The burst is over: how many it dropped (0: nothing to say). */
  settle(): number {
    const n = this.#burst;
    this.#burst = 0;
    return n;
  }

  /** Every drop so far. */
  get total(): number {
    return this.#total;
  }
}

/** Page → extension: at most {@link MAX_IN_FLIGHT} messages of one page on
 * their way at once, in order. */
export class PageOutbox {
  #inFlight = 0;
  readonly drops = new DropCount();

  /** Whether one more may go now (if so, it is counted in flight). */
  admit(): boolean {
    if (this.#inFlight >= MAX_IN_FLIGHT) return false;
    this.#inFlight++;
    return true;
  }

  /** One that went out has been handed to the backend; when it was the
   * last on its way, returns how many the burst dropped (else 0). */
  done(): number {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    return this.#inFlight === 0 ? this.drops.settle() : 0;
  }

  /** How many are on their way. */
  get inFlight(): number {
    return this.#inFlight;
  }
}

/** Extension → page: messages held until the page's frame can take them
 * (it is loading, or not shown yet), at most {@link MAX_HELD}. */
export class PageInbox {
  #held: unknown[] = [];
  #post: ((data: unknown) => void) | null = null;
  readonly drops = new DropCount();

  /** A message for the page: posted at once when its frame is ready,
   * else held (beyond {@link MAX_HELD}, dropped and counted). */
  deliver(data: unknown): void {
    if (this.#post) this.#post(data);
    else if (this.#held.length >= MAX_HELD) this.drops.hit();
    else this.#held.push(data);
  }

  /** The frame is ready: what was held goes first, in order. Returns how
   * many were dropped while it was not (0: nothing to say). */
  attach(post: (data: unknown) => void): number {
    this.#post = post;
    const held = this.#held;
    this.#held = [];
    for (const d of held) post(d);
    return this.drops.settle();
  }

  /** The frame went away (closed, moved, reloading): hold again. */
  detach(): void {
    this.#post = null;
  }

  /** How many wait. */
  get held(): number {
    return this.#held.length;
  }
}
