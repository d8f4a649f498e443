// What a screen reader hears as the chat changes. The transcript itself is
// a virtual list whose rows come and go as it scrolls, and an answer
// arrives in hundreds of deltas, so making it a live region would either
// miss text or read every fragment. Instead one polite and one assertive
// live region (Announcer.svelte) say one sentence per meaningful step:
// a finished answer, a tool starting and how it ended, a note, an error.
import type { UiEvent } from "../bindings/UiEvent";

/** One thing to say; `urgent` ones interrupt (role="alert"). */
export interface Announcement {
  text: string;
  urgent: boolean;
}

/** Long answers are cut here: the reader can read the transcript itself. */
export const MAX_SPOKEN = 300;

/** Markdown as it would be read aloud: code blocks become "(code)", and
 * emphasis marks, backticks, heading hashes and link targets go. */
export function plain(md: string): string {
  return md
    .replace(/```[\s\S]*?(```|$)/g, " (code) ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^#{1,6}\s+/gm, "")
    .replace(/[*_`~]+/g, "");
}

function clip(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length <= MAX_SPOKEN ? t : `${t.slice(0, MAX_SPOKEN)}… (continues in the transcript)`;
}

/** A finished answer as read aloud, clipped. Only the start of the
 * markdown is read, as much as the clip needs: a long answer (hundreds of
 * KB) would otherwise go through every pattern above in the frame that
 * finishes it, for 300 characters. Where the start is cut, a link or
 * fence may be split; that changes only what is read from there on, and
 * the start is taken long enough that this lies past the clip. */
function spokenAnswer(md: string): string {
  for (let n = MAX_SPOKEN * 8; ; n *= 4) {
    if (n >= md.length) return clip(plain(md));
    const start = plain(md.slice(0, n)).replace(/\s+/g, " ").trim();
    if (start.length > 2 * MAX_SPOKEN) return clip(start);
  }
}

/** The announcement for one backend event, or null for the quiet ones
 * (deltas, starts, renders, list refreshes). */
export function announcement(e: UiEvent): Announcement | null {
  switch (e.type) {
    case "assistant_message":
      return e.content.trim() ? { text: `zot: ${spokenAnswer(e.content)}`, urgent: false } : null;
    case "tool_call":
      return { text: `running ${e.name}${e.extension ? ` from ${e.extension}` : ""}`, urgent: false };
    case "ui_request":
      // Like the approval card, a dialog does not take the editor's focus.
      return { text: `${e.extension} asks: ${e.title}; Ctrl+Shift+A goes to it`, urgent: false };
    case "tool_approval":
      // The card does not take focus (typing in the editor must not answer
      // it), so a screen reader hears where it is.
      return {
        text: `${e.tool}${e.extension ? ` from ${e.extension}` : ""} waits for your approval; Ctrl+Shift+A goes to it`,
        urgent: false,
      };
    case "tool_result":
      return e.is_error ? { text: "the tool failed", urgent: false } : null;
    case "turn_end":
      if (e.stop === "error") return { text: `the turn failed: ${clip(e.error ?? "")}`, urgent: true };
      if (e.stop === "aborted") return { text: "stopped", urgent: false };
      return null;
    case "error":
      return { text: clip(e.message), urgent: true };
    case "ext_notify":
      return { text: `${e.extension}: ${clip(e.message)}`, urgent: e.level === "error" };
    case "ext_error":
      return { text: `${e.extension} failed: ${clip(e.message)}`, urgent: true };
    case "ext_restarting":
      return { text: `${e.extension} crashed and is restarting`, urgent: false };
    default:
      return null;
  }
}
