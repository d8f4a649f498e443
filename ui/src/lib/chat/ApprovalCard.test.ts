// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import ChatRow from "./ChatRow.svelte";
import { AppState } from "../app.svelte";
import { FakeBackend } from "../backend/fake";
import type { UiEvent } from "../bindings/UiEvent";

const tick = () => new Promise((r) => setTimeout(r, 0));

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
    scopes: [
      { scope: "exact", label: 'the bash command "git status && rm -rf ~"' },
      { scope: "tool", label: "every bash command (any program, any arguments)" },
    ],
    ...over,
  };
}

function card(e: UiEvent = approvalEvent()) {
  const backend = new FakeBackend();
  const app = new AppState(backend);
  app.handle({ type: "tool_call", id: "t1", name: "bash", args: {} });
  // Someone is typing in the editor when the card arrives.
  const editor = document.createElement("textarea");
  document.body.append(editor);
  editor.focus();
  app.handle(e);
  expect(app.chat.items[0]).toMatchObject({ kind: "tool", awaiting: true });
  const item = app.chat.items.at(-1)!;
  const id = item.kind === "approval" ? item.approvalId : "";
  const target = document.createElement("div");
  document.body.append(target);
  const c = mount(ChatRow, { target, props: { item, app } });
  flushSync();
  const el = target.querySelector<HTMLElement>("[data-test=approval-card]")!;
  const key = (k: string, at: Element | null = document.activeElement) => {
    const ev = new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true });
    (at ?? el).dispatchEvent(ev);
    return ev;
  };
  const answers = () =>
    backend.calls.filter((c) => (c.args as { type?: string })?.type === "approve_tool").map((c) => c.args);
  const done = () => {
    unmount(c);
    editor.remove();
    target.remove();
  };
  return { backend, app, target, el, editor, key, answers, id, done };
}

describe("ApprovalCard", () => {
  it("leaves focus in the editor and shows the exact command, the reason and labelled answers", () => {
    const { el, editor, target, done } = card();
    expect(document.activeElement).toBe(editor);
    expect(el.getAttribute("role")).toBe("group");
    const title = document.getElementById(el.getAttribute("aria-labelledby")!);
    expect(title?.textContent).toContain("bash");
    expect(target.querySelector("[data-test=approval-command]")?.textContent).toBe("git status && rm -rf ~");
    expect(target.querySelector("[data-test=approval-reason]")?.textContent).toContain("no remembered rule");
    const always = target.querySelector<HTMLButtonElement>("[data-test=approval-always]")!;
    expect(always.getAttribute("aria-label")).toBe('Always allow the bash command "git status && rm -rf ~"…');
    expect(always.querySelector("kbd")).toBeNull();
    for (const b of target.querySelectorAll("button")) expect(b.tabIndex).toBe(0);
    expect(target.querySelector("[data-test=approval-hint]")?.textContent).toContain("Ctrl+Shift+A");
    done();
  });

  it("keys typed in the editor never answer it", async () => {
    const { key, answers, app, id, done } = card();
    for (const k of ["Enter", "y", "Y", "a", "A", "n", "Escape", " "]) key(k);
    await tick();
    expect(answers()).toEqual([]);
    expect(app.chat.findApproval(id)?.state).toBe("waiting");
    done();
  });

  it("reached deliberately, Enter allows once", async () => {
    const { el, key, answers, app, target, id, done } = card();
    el.focus();
    key("Enter");
    await tick();
    flushSync();
    expect(answers()).toEqual([{ type: "approve_tool", id, decision: "allow", remember: false }]);
    expect(app.chat.findApproval(id)?.state).toBe("allowed");
    expect(app.chat.items.find((i) => i.kind === "tool")).toMatchObject({ awaiting: false });
    expect(target.querySelector("[data-test=approval-outcome]")?.textContent).toContain("allowed once");
    expect(target.querySelector("[data-test=approval-allow]")).toBeNull();
    done();
  });

  it("no single key always allows: A does nothing, and the button only asks to confirm", async () => {
    const { el, key, answers, target, id, done } = card();
    el.focus();
    key("a");
    key("A");
    await tick();
    expect(answers()).toEqual([]);
    const always = target.querySelector<HTMLButtonElement>("[data-test=approval-always]")!;
    always.focus();
    always.click();
    await tick();
    flushSync();
    // The first press only opens the confirmation.
    expect(answers()).toEqual([]);
    expect(always.getAttribute("aria-expanded")).toBe("true");
    const confirm = target.querySelector<HTMLButtonElement>("[data-test=approval-always-confirm]")!;
    expect(document.activeElement).toBe(always);
    // Enter on the "Always allow…" button is that button's (it toggles the
    // confirmation), never a remembered rule.
    key("Enter", always);
    await tick();
    expect(answers()).toEqual([]);
    confirm.click();
    await tick();
    flushSync();
    expect(answers()).toEqual([
      { type: "approve_tool", id, decision: "allow", remember: true, scope: "exact" },
    ]);
    // The card says what the backend remembered.
    expect(target.querySelector("[data-test=approval-outcome]")?.textContent).toContain(
      "always allowed: the rule",
    );
    done();
  });

  it("offers the scopes narrowest first and sends the one picked", async () => {
    const { answers, target, id, done } = card();
    target.querySelector<HTMLButtonElement>("[data-test=approval-always]")!.click();
    flushSync();
    const radios = [...target.querySelectorAll<HTMLInputElement>("[data-test^=approval-scope-]")];
    expect(radios.map((r) => [r.value, r.checked, r.closest("label")?.textContent?.trim()])).toEqual([
      ["exact", true, 'the bash command "git status && rm -rf ~"'],
      ["tool", false, "every bash command (any program, any arguments)"],
    ]);
    // The confirm button is short: the scope is said beside its radio.
    expect(target.querySelector("[data-test=approval-always-confirm]")?.textContent?.trim()).toBe(
      "Always allow",
    );
    radios[1].click();
    flushSync();
    expect(target.querySelector("[data-test=approval-always]")?.getAttribute("aria-label")).toBe(
      "Always allow every bash command (any program, any arguments)…",
    );
    target.querySelector<HTMLButtonElement>("[data-test=approval-always-confirm]")!.click();
    await tick();
    expect(answers()).toEqual([
      { type: "approve_tool", id, decision: "allow", remember: true, scope: "tool" },
    ]);
    done();
  });

  it("a call with nothing to remember has no Always button and says so", () => {
    const { target, done } = card(
      approvalEvent({ tool: "read", args: { path: "/proc/self/environ" }, scopes: [] }),
    );
    expect(target.querySelector("[data-test=approval-always]")).toBeNull();
    expect(target.querySelector("[data-test=approval-once-only]")?.textContent).toContain("allow it once");
    expect(target.querySelector("[data-test=approval-allow]")).not.toBeNull();
    done();
  });

  it("Cancel closes the confirmation and nothing is remembered", async () => {
    const { answers, target, app, id, done } = card();
    target.querySelector<HTMLButtonElement>("[data-test=approval-always]")!.click();
    flushSync();
    target.querySelector<HTMLButtonElement>("[data-test=approval-always-cancel]")!.click();
    flushSync();
    expect(target.querySelector("[data-test=approval-confirm]")).toBeNull();
    expect(answers()).toEqual([]);
    expect(app.chat.findApproval(id)?.state).toBe("waiting");
    done();
  });

  it("Escape on the focused card denies at once and does not reach the turn's Esc-to-stop", async () => {
    let reached = false;
    const spy = () => (reached = true);
    window.addEventListener("keydown", spy);
    const { el, key, answers, app, id, done } = card();
    el.focus();
    const ev = key("Escape");
    await tick();
    expect(ev.defaultPrevented).toBe(true);
    expect(reached).toBe(false);
    expect(answers()).toEqual([{ type: "approve_tool", id, decision: "deny", remember: false }]);
    expect(app.chat.findApproval(id)?.state).toBe("denied");
    window.removeEventListener("keydown", spy);
    done();
  });

  it("says when the read-only mark is only the extension's claim", () => {
    const { target, done } = card(
      approvalEvent({
        tool: "lookup",
        args: { q: 1 },
        extension: "web",
        read_only_claim: true,
        reason: "lookup is a tool of extension web; it says it only reads",
        remember: "every call of lookup from extension web",
      }),
    );
    expect(target.querySelector("[data-test=approval-claim]")?.textContent).toBe("read-only, as web claims");
    // The tool and its owner are two words apart, not run together.
    expect(target.querySelector("h3")?.textContent?.replace(/\s+/g, " ").trim()).toBe("Run lookup from web?");
    done();
  });

  it("shows a write as a diff of the file", () => {
    const { target, done } = card(
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
    done();
  });

  it("keeps the card answerable when an answer is refused", async () => {
    const { backend, target, app, id, done } = card();
    backend.approveError = "approve_tool: cannot remember the rule: config.json is not valid JSON";
    target.querySelector<HTMLButtonElement>("[data-test=approval-always]")!.click();
    flushSync();
    target.querySelector<HTMLButtonElement>("[data-test=approval-always-confirm]")!.click();
    await tick();
    flushSync();
    expect(target.querySelector("[data-test=approval-problem]")?.textContent).toContain("not valid JSON");
    expect(app.chat.findApproval(id)?.state).toBe("waiting");
    backend.approveError = null;
    target.querySelector<HTMLButtonElement>("[data-test=approval-deny]")!.click();
    await tick();
    expect(app.chat.findApproval(id)?.state).toBe("denied");
    done();
  });

  it("a card left unanswered when its call ends can no longer be answered", () => {
    const { app, target, id, done } = card();
    app.handle({
      type: "tool_result",
      id: "t1",
      is_error: true,
      content: [{ type: "text", text: "aborted" }],
    });
    flushSync();
    expect(app.chat.findApproval(id)?.state).toBe("expired");
    expect(target.querySelector("[data-test=approval-allow]")).toBeNull();
    done();
  });

  it("an answer folds the card into its tool card's line", async () => {
    const { el, key, app, id, done } = card();
    el.focus();
    key("Escape");
    await tick();
    expect(app.chat.findApproval(id)).toMatchObject({ state: "denied", folded: true });
    const tool = app.chat.items.find((i) => i.kind === "tool");
    expect(tool).toMatchObject({ approval: { state: "denied" } });
    const target = document.createElement("div");
    document.body.append(target);
    const c = mount(ChatRow, { target, props: { item: tool!, app } });
    flushSync();
    const line = target.querySelector<HTMLElement>("[data-test=tool-approval]")!;
    expect(line.dataset.state).toBe("denied");
    expect(line.textContent).toMatch(/Denied by you at \d\d:\d\d/);
    unmount(c);
    target.remove();
    done();
  });

  it("an answered call with no tool card (an MCP App's own) becomes one line naming it", async () => {
    const backend = new FakeBackend();
    const app = new AppState(backend);
    app.handle(approvalEvent({ id: "app-approval", call_id: "app-1", tool: "add", extension: "apps" }));
    const card = app.chat.findApproval("app-approval")!;
    await app.answerApproval("app-approval", "allow");
    expect(card).toMatchObject({ state: "allowed", answered: { state: "allowed" } });
    expect(card.folded).toBeFalsy();
    const target = document.createElement("div");
    document.body.append(target);
    const c = mount(ChatRow, { target, props: { item: card, app } });
    flushSync();
    const line = target.querySelector<HTMLElement>("[data-test=tool-approval]")!;
    expect(line.textContent).toMatch(/^✓ add from apps: Allowed once by you at \d\d:\d\d$/);
    expect(target.querySelector("[data-test=approval-allow]")).toBeNull();
    unmount(c);
    target.remove();
  });

  it("the call's result arriving before approve_tool's response keeps the user's answer", async () => {
    const { app, id, done } = card();
    const answering = app.answerApproval(id, "allow");
    app.handle({ type: "tool_result", id: "t1", content: [], is_error: false } as UiEvent);
    expect(app.chat.findApproval(id)?.state).toBe("sending");
    await answering;
    expect(app.chat.findApproval(id)).toMatchObject({ state: "allowed", folded: true });
    expect(app.chat.items.find((i) => i.kind === "tool")).toMatchObject({ approval: { state: "allowed" } });
    done();
  });

  it("a refused answer for a call that has ended expires the card", async () => {
    const { backend, app, id, done } = card();
    backend.approveError = "approve_tool: no approval is waiting with that id";
    const answering = app.answerApproval(id, "allow");
    app.handle({ type: "tool_result", id: "t1", content: [], is_error: true } as UiEvent);
    await answering;
    expect(app.chat.findApproval(id)).toMatchObject({ state: "expired", folded: true });
    done();
  });

  it("an answer zot no longer waits for (not_found) expires the card at once", async () => {
    const { backend, app, id, done } = card();
    backend.approveError = "approve_tool: approval a1 was already answered";
    backend.approveErrorCode = "not_found";
    await app.answerApproval(id, "allow");
    expect(app.chat.findApproval(id)).toMatchObject({ state: "expired", folded: true });
    done();
  });

  it("a card whose call ended unanswered folds as not answered", () => {
    const { app, id, done } = card();
    app.handle({ type: "tool_result", id: "t1", content: [], is_error: true } as UiEvent);
    expect(app.chat.findApproval(id)).toMatchObject({ state: "expired", folded: true });
    expect(app.chat.items.find((i) => i.kind === "tool")).toMatchObject({ approval: { state: "expired" } });
    done();
  });
});
