// IPC errors arrive as `{code, message}` from the Rust side, as a plain
// string from Tauri itself (e.g. a denied permission), or as an Error from
// the fake. This turns all of them into one readable message.
import type { BackendError } from "./backend";

/** Decodes anything a rejected backend call throws. */
export function decodeError(e: unknown): BackendError {
  if (e && typeof e === "object" && "message" in e) {
    const o = e as { code?: unknown; message?: unknown };
    return {
      code: typeof o.code === "string" ? o.code : "error",
      message: String(o.message),
    };
  }
  if (typeof e === "string") return { code: "error", message: e };
  return { code: "error", message: String(e) };
}

/** Just the message, for a status line. */
export function errorMessage(e: unknown): string {
  return decodeError(e).message;
}
