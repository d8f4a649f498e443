import { describe, expect, it } from "vitest";
import type { DoctorExtension } from "../bindings/DoctorExtension";
import type { DoctorReport } from "../bindings/DoctorReport";
import { bytes, canRestart, costLine, formatDoctor, healthLine, stateLabel } from "./doctor";

/** A report with `extensions` filled in from their few interesting fields. */
function report(
  ok: boolean,
  exts: Partial<DoctorExtension>[],
  more: Partial<DoctorReport> = {},
): DoctorReport {
  const extensions = exts.map((e) => ({
    scope: "global",
    state: "ready",
    readiness: "ready",
    warnings: [],
    manifest_path: `/ext/${e.name}/extension.json`,
    log_path: `/l/ext-${e.name}.log`,
    ...e,
  })) as DoctorExtension[];
  return { ok, problems: [], manifest_errors: [], extensions, interception: [], conflicts: [], ...more };
}

describe("formatDoctor", () => {
  it("lists problems and each extension with its log", () => {
    const text = formatDoctor(
      report(
        false,
        [{ name: "bad", state: "failed", readiness: "not_ready", error: "exited", log_tail: ["boom"] }],
        {
          problems: ["bad: exited before hello"],
          interception: [{ event: "tool_call", chain: ["guard"] }],
        },
      ),
    );
    expect(text).toContain("✗ problems found");
    expect(text).toContain("bad (global) — failed, not-ready");
    expect(text).toContain("log: /l/ext-bad.log");
    expect(text).toContain("| boom");
    expect(text).toContain("intercept tool_call: guard");
  });
  it("says what an extension needs set up and which names lost", () => {
    const text = formatDoctor(
      report(false, [{ name: "guard", state: "failed", setup: "run `cargo build -p guard`" }], {
        conflicts: [
          { extension: "b", kind: "command", name: "hi", by: "a (global)", reason: "loaded first" },
        ],
      }),
    );
    expect(text).toContain("needs setup: run `cargo build -p guard`");
    expect(text).toContain("conflict: b's command 'hi' lost to a (global): loaded first");
  });
});

describe("tolerated behaviour and slow starts", () => {
  it("lists what an extension relies on that zot only tolerates", () => {
    const text = formatDoctor(report(true, [{ name: "jev", tolerated: ["notify level 'warning'"] }]));
    expect(text).toContain("tolerated (works, but fix it; see docs/compat.md): notify level 'warning'");
  });
  it("shows a loading extension's elapsed start time, ticking from when it was listed", () => {
    expect(stateLabel({ state: "ready" }, 0)).toBe("ready");
    expect(stateLabel({ state: "loading" }, 5000)).toBe("loading");
    expect(stateLabel({ state: "loading", starting_ms: 300 }, 0)).toBe("starting…");
    expect(stateLabel({ state: "loading", starting_ms: 12_400 }, 1_700)).toBe("starting… 14 s");
  });
});

describe("the card's health", () => {
  it("says nothing for an extension that never crashed", () => {
    expect(healthLine({ restarts: 0, last_exit: null })).toBe("");
  });
  it("counts automatic restarts and names the last exit", () => {
    expect(healthLine({ restarts: 1, last_exit: "status 5" })).toBe(
      "restarted 1 time in the last 5 min · last exit: status 5",
    );
    expect(healthLine({ restarts: 3, last_exit: "signal 9 (SIGKILL)" })).toBe(
      "restarted 3 times in the last 5 min · last exit: signal 9 (SIGKILL)",
    );
    expect(healthLine({ restarts: 0, last_exit: "status 1" })).toBe("last exit: status 1");
  });
  it("offers Restart for what has or had a process, not for disabled, theme-only or untrusted ones", () => {
    for (const state of ["ready", "loading", "exited", "failed", "crashed"])
      expect(canRestart({ state })).toBe(true);
    for (const state of ["disabled", "theme", "untrusted"]) expect(canRestart({ state })).toBe(false);
  });
  it("shows crashed as it is", () => {
    expect(stateLabel({ state: "crashed" }, 0)).toBe("crashed");
  });
  it("shows an on_use extension that has not been used yet as idle, with nothing to restart", () => {
    expect(stateLabel({ state: "idle" }, 0)).toBe("idle");
    expect(canRestart({ state: "idle" })).toBe(false);
  });
});

describe("the card's cost line", () => {
  it("is empty before the first call with no log", () => {
    expect(costLine({ calls: 0, errors: 0, log_bytes: 0 })).toBe("");
  });
  it("shows calls, failures, p50/p99 and the log size", () => {
    expect(costLine({ calls: 12, errors: 1, p50_ms: 40, p99_ms: 200, log_bytes: 12_800 })).toBe(
      "12 calls · 1 failed · p50 40 ms · p99 200 ms · log 13 KiB",
    );
    expect(costLine({ calls: 1, errors: 0, p50_ms: 3, p99_ms: 3, log_bytes: 0 })).toBe(
      "1 call · p50 3 ms · p99 3 ms",
    );
  });
  it("reads byte counts as people do", () => {
    expect([bytes(812), bytes(2048), bytes(3.5 * 1024 * 1024)]).toEqual(["812 B", "2 KiB", "3.5 MiB"]);
  });
});
