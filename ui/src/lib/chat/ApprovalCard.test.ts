// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import ChatRow from "./ChatRow.svelte";
import { AppState } from "../app.svelte";
import { FakeBackend } from "../backend/fake";
import type { UiEvent } from "../bindings/UiEvent";

const tick = () => new Promise((r) => setTimeout(r, 0));
/** Past the card's guard against an Enter typed for the editor. */
const armed = () => new Promise((r) => setTimeout(r, 450));

/** Ids are unique per test: a card takes focus once per approval id. */
let seq = 0;

function approvalEvent(over: Partial<Extract<UiEvent, { type: "tool_approval" }>> = {}): UiEvent {
  return {
    type: "tool_approval",
    id: `approval-${++seq}`,
    call_id: "t1",
    tool: "bash",
    args: { command: "git status && rm -rf ~" },
    reason: "bash runs a shell command; no remembered rule matches it",
    remember: 'the bash command "git status && rm -rf ~"',
    ...over,
  };
}

function card(e: UiEvent = approvalEvent()) {
  const backend = new FakeBackend();
  const app = new AppState(backend);
  app.handle({ type: "tool_call", id: "t1", name: "bash", args: {} });
  app.handle(e);
  expect(app.chat.items[0]).toMatchObject({ kind: "tool", awaiting: true });
  const item = app.chat.items.at(-1)!;
  const id = item.kind === "approval" ? item.approvalId : "";
  const target = document.createElement("div");
  document.body.append(target);
  const c = mount(ChatRow, { target, props: { item, app } });
  flushSync();
  const el = target.querySelector<HTMLElement>("[data-test=approval-card]")!;
  const key = (k: string) => {
    const ev = new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true });
    (document.activeElement ?? el).dispatchEvent(ev);
    return ev;
  };
  const answers = () =>
    backend.calls.filter((c) => (c.args as { type?: string })?.type === "approve_tool").map((c) => c.args);
  return { backend, app, target, el, c, key, answers, id };
}

describe("ApprovalCard", () => {
  it("takes focus and shows the exact command, the reason and labelled answers", () => {
    const { el, target, c } = card();
    expect(document.activeElement).toBe(el);
    expect(el.getAttribute("role")).toBe("group");
    const title = document.getElementById(el.getAttribute("aria-labelledby")!);
    expect(title?.textContent).toContain("bash");
    expect(target.querySelector("[data-test=approval-command]")?.textContent).toBe("git status && rm -rf ~");
    expect(target.querySelector("[data-test=approval-reason]")?.textContent).toContain("no remembered rule");
    const always = target.querySelector<HTMLButtonElement>("[data-test=approval-always]")!;
    expect(always.getAttribute("aria-label")).toBe('Always allow the bash command "git status && rm -rf ~"');
    for (const b of target.querySelectorAll("button")) expect(b.tabIndex).toBe(0);
    unmount(c);
  });

  it("ignores an Enter typed right as it appears, then Enter allows once", async () => {
    const { key, answers, app, target, c, id } = card();
    key("Enter");
    await tick();
    expect(answers()).toEqual([]);
    await armed();
    key("Enter");
    await tick();
    flushSync();
    expect(answers()).toEqual([{ type: "approve_tool", id, decision: "allow", remember: false }]);
    expect(app.chat.findApproval(id)?.state).toBe("allowed");
    expect(app.chat.items.find((i) => i.kind === "tool")).toMatchObject({ awaiting: false });
    expect(target.querySelector("[data-test=approval-outcome]")?.textContent).toContain("allowed once");
    expect(target.querySelector("[data-test=approval-allow]")).toBeNull();
    unmount(c);
  });

  it("A always allows and says what was remembered", async () => {
    const { key, answers, target, c, id } = card();
    await armed();
    key("a");
    await tick();
    flushSync();
    expect(answers()).toEqual([{ type: "approve_tool", id, decision: "allow", remember: true }]);
    expect(target.querySelector("[data-test=approval-outcome]")?.textContent).toContain(
      'always allowed: the bash command "git status && rm -rf ~"',
    );
    unmount(c);
  });

  it("Escape denies at once and does not reach the turn's Esc-to-stop", async () => {
    let reached = false;
    const spy = () => (reached = true);
    window.addEventListener("keydown", spy);
    const { key, answers, app, c, id } = card();
    const ev = key("Escape");
    await tick();
    expect(ev.defaultPrevented).toBe(true);
    expect(reached).toBe(false);
    expect(answers()).toEqual([{ type: "approve_tool", id, decision: "deny", remember: false }]);
    expect(app.chat.findApproval(id)?.state).toBe("denied");
    window.removeEventListener("keydown", spy);
    unmount(c);
  });

  it("shows a write as a diff of the file", () => {
    const { target, c } = card(
      approvalEvent({
        tool: "write",
        args: { path: "/elsewhere/notes.txt", content: "one\nTWO\n" },
        before: "one\ntwo\n",
        remember: "every write call, in or out of the project",
      }),
    );
    const diff = target.querySelector("[data-test=approval-diff]")!;
    expect(diff.getAttribute("aria-label")).toBe("changes to /elsewhere/notes.txt");
    expect([...diff.querySelectorAll(".op-del")].map((n) => n.textContent?.trim())).toEqual(["- two"]);
    expect([...diff.querySelectorAll(".op-add")].map((n) => n.textContent?.trim())).toEqual(["+ TWO"]);
    unmount(c);
  });

  it("keeps the card answerable when an answer is refused", async () => {
    const { backend, target, c, app, id } = card();
    backend.approveError = "approve_tool: cannot remember the rule: config.json is not valid JSON";
    target.querySelector<HTMLButtonElement>("[data-test=approval-always]")!.click();
    await tick();
    flushSync();
    expect(target.querySelector("[data-test=approval-problem]")?.textContent).toContain("not valid JSON");
    expect(app.chat.findApproval(id)?.state).toBe("waiting");
    backend.approveError = null;
    target.querySelector<HTMLButtonElement>("[data-test=approval-deny]")!.click();
    await tick();
    expect(app.chat.findApproval(id)?.state).toBe("denied");
    unmount(c);
  });

  it("a card left unanswered when its call ends can no longer be answered", () => {
    const { app, target, c, id } = card();
    app.handle({
      type: "tool_result",
      id: "t1",
      is_error: true,
      content: [{ type: "text", text: "aborted" }],
    });
    flushSync();
    expect(app.chat.findApproval(id)?.state).toBe("expired");
    expect(target.querySelector("[data-test=approval-allow]")).toBeNull();
    unmount(c);
  });
});
