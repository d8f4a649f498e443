// Session-scoped state (docs/protocol.md "Session state"): values that
// belong to the conversation, not the project. zot keeps them in the
// session file, so they come back on resume and follow the conversation
// through clear, fork and rewind. This is the extension's copy: filled
// from `hello_ack.state`, replaced by each `state_restored`, written
// through with `state_set`.
import type { ExtToHost, JsonValue } from "./protocol/index.js";

/** Largest JSON value one `set` may store (bytes, serialized). */
export const STATE_VALUE_MAX = 64 * 1024;
/** Largest total per extension per session (bytes: keys plus values). */
export const STATE_EXT_MAX = 1024 * 1024;
/** Longest key (bytes). */
export const STATE_KEY_MAX = 256;

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** The extension's state in the current session. */
export class SessionState {
  #values: Record<string, JsonValue>;

  /** @internal */
  constructor(
    initial: Record<string, unknown> | undefined,
    private readonly out: (frame: ExtToHost) => void,
  ) {
    this.#values = { ...((initial ?? {}) as Record<string, JsonValue>) };
  }

  /** The value under `key` (typed by the caller), or `undefined`. */
  get<T = JsonValue>(key: string): T | undefined {
    return this.#values[key] as T | undefined;
  }

  /** Every key and value. */
  all(): Readonly<Record<string, JsonValue>> {
    return this.#values;
  }

  /**
   * Stores `value` under `key` in this session. Throws (and sends
   * nothing) over zot's limits: 64 KiB a value, 1 MiB in all, keys of 1
   * to 256 bytes.
   */
  set<T extends JsonValue>(key: string, value: T): void {
    const json = JSON.stringify(value);
    if (json === undefined) throw new Error(`state ${JSON.stringify(key)}: the value is not JSON`);
    const problem = this.problem(key, json, value === null);
    if (problem) throw new Error(`state ${JSON.stringify(key)} refused: ${problem}`);
    if (value === null) delete this.#values[key];
    else this.#values[key] = JSON.parse(json) as JsonValue;
    this.out({ type: "state_set", key, value });
  }

  /** Removes `key`. */
  remove(key: string): void {
    this.set(key, null);
  }

  /** @internal The session changed: zot's values replace ours. */
  replace(values: Record<string, unknown> | undefined): void {
    this.#values = { ...((values ?? {}) as Record<string, JsonValue>) };
  }

  private problem(key: string, json: string, removing: boolean): string | undefined {
    if (key.length === 0) return "the key is empty";
    if (bytes(key) > STATE_KEY_MAX) return `the key is over ${STATE_KEY_MAX} bytes`;
    const size = bytes(json);
    if (size > STATE_VALUE_MAX) return `the value is ${size} bytes of JSON, over the limit of ${STATE_VALUE_MAX} per value`;
    let total = removing ? 0 : bytes(key) + size;
    for (const [k, v] of Object.entries(this.#values)) {
      if (k !== key) total += bytes(k) + bytes(JSON.stringify(v));
    }
    return total > STATE_EXT_MAX ? `the extension's session state would be ${total} bytes, over the limit of ${STATE_EXT_MAX}` : undefined;
  }
}
