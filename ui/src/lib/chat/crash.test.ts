import { describe, expect, it } from "vitest";
import { afterState, canRestartRow, exitWords, recoveryText, type CrashRow } from "./crash";

describe("crash rows", () => {
  it("say how the process ended in words", () => {
    expect(exitWords("signal 9 (SIGKILL)")).toBe("stopped unexpectedly (killed)");
    expect(exitWords("signal 11 (SIGSEGV)")).toBe("crashed (segmentation fault)");
    expect(exitWords("signal 31 (SIGSYS)")).toBe("was stopped by the sandbox (a refused system call)");
    expect(exitWords("signal 40 (SIGRTMIN+6)")).toBe("stopped unexpectedly (SIGRTMIN+6)");
    expect(exitWords("status 3")).toBe("exited with status 3");
    expect(exitWords("status 0")).toBe("exited");
    expect(exitWords(undefined)).toBe("stopped unexpectedly");
  });

  it("follow supervision: restarting, back, given up, down again", () => {
    const row: CrashRow = { extension: "todo", recovery: "restarting", attempt: 2, delayMs: 2000 };
    expect(recoveryText(row)).toBe("Restarting in 2 s (attempt 2 of 3)…");
    expect(canRestartRow(row)).toBe(false);
    const at = new Date(2026, 11, 6, 14, 2).getTime();
    const back = { ...row, ...afterState(row, "ready", at) };
    expect(back.recovery).toBe("back");
    expect(recoveryText(back)).toBe("Running again since 14:02.");
    expect(afterState(back, "ready")).toEqual({});
    expect(afterState(back, "exited")).toEqual({ recovery: "none" });
    const gaveUp = { ...row, ...afterState(row, "crashed") };
    expect(recoveryText(gaveUp)).toContain("3 times in 5 minutes");
    expect(canRestartRow(gaveUp)).toBe(true);
    // Loading: nothing to say yet.
    expect(afterState(row, "loading")).toEqual({});
  });
});
