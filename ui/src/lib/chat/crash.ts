// A crashed extension's one row in the chat: what happened in words, what
// supervision did since (restarting, running again, given up), and which
// command reopens the panels the crash closed. Pure, so it is tested alone.
import type { ExtState } from "../bindings/ExtState";

/** What supervision did after the crash. */
export type Recovery = "none" | "restarting" | "back" | "gave_up";

/** The row's state, as the chat keeps it. */
export interface CrashRow {
  extension: string;
  exitStatus?: string;
  recovery: Recovery;
  attempt?: number;
  delayMs?: number;
  /** When it was ready again (ms since the epoch). */
  backAt?: number;
}

const SIGNALS: Record<string, string> = {
  SIGKILL: "stopped unexpectedly (killed)",
  SIGTERM: "stopped unexpectedly (terminated)",
  SIGINT: "stopped unexpectedly (interrupted)",
  SIGHUP: "stopped unexpectedly (hung up)",
  SIGSEGV: "crashed (segmentation fault)",
  SIGBUS: "crashed (bus error)",
  SIGABRT: "crashed (aborted)",
  SIGILL: "crashed (illegal instruction)",
  SIGFPE: "crashed (arithmetic error)",
  SIGPIPE: "stopped (its output was closed)",
  SIGSYS: "was stopped by the sandbox (a refused system call)",
};

/** How the process ended, in words: `signal 9 (SIGKILL)` → "stopped
 * unexpectedly (killed)", `status 3` → "exited with status 3". */
export function exitWords(exitStatus?: string): string {
  if (!exitStatus) return "stopped unexpectedly";
  const sig = /\((SIG[A-Z0-9+]+)\)/.exec(exitStatus)?.[1];
  if (sig) return SIGNALS[sig] ?? `stopped unexpectedly (${sig})`;
  const status = /^status (\d+)$/.exec(exitStatus.trim())?.[1];
  if (status === "0") return "exited";
  if (status) return `exited with status ${status}`;
  return `stopped unexpectedly (${exitStatus})`;
}

/** The local time as HH:MM. */
function hhmm(at: number): string {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** The line under the row's title: what supervision is doing or did. */
export function recoveryText(row: CrashRow): string {
  switch (row.recovery) {
    case "restarting":
      return `Restarting in ${(row.delayMs ?? 0) / 1000} s (attempt ${row.attempt ?? 1} of 3)…`;
    case "back":
      return `Running again since ${hhmm(row.backAt ?? Date.now())}.`;
    case "gave_up":
      return "Not restarted: it crashed 3 times in 5 minutes. Restart it when you are ready.";
    case "none":
      return "It is not running.";
  }
}

/** The row's next recovery once the extension's state is known (after an
 * `ext_list`): ready means it is back; crashed means supervision gave up. */
export function afterState(row: CrashRow, state: ExtState | undefined, now = Date.now()): Partial<CrashRow> {
  if (row.recovery === "back") return state === "ready" ? {} : { recovery: "none" };
  if (state === "ready") return { recovery: "back", backAt: now };
  if (state === "crashed") return { recovery: "gave_up" };
  return {};
}

/** Whether Restart is offered: while it is down and nobody restarts it. */
export function canRestartRow(row: CrashRow): boolean {
  return row.recovery === "none" || row.recovery === "gave_up";
}
