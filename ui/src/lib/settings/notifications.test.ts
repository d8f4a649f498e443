// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import Notifications from "./Notifications.svelte";
import { AppState } from "../app.svelte";
import { FakeBackend } from "../backend/fake";
import type { Settings } from "../backend/backend";
import { ALL_OFF, KINDS, NotificationPrefs } from "./notifications.svelte";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("NotificationPrefs", () => {
  it("starts all off when the settings say nothing", () => {
    const p = new NotificationPrefs(new FakeBackend(), undefined, () => {});
    expect(p.values).toEqual(ALL_OFF);
  });

  it("saves only the notifications, one kind changed, and hands back the settings", async () => {
    const b = new FakeBackend();
    let saved: Settings | null = null;
    const p = new NotificationPrefs(b, b.settings.notifications, (s) => (saved = s));
    await p.set("approval", true);
    expect(b.calls.at(-1)).toEqual({
      method: "saveSettings",
      args: {
        notifications: { turn_end: false, approval: true, extension_crash: false },
        api_key: undefined,
      },
    });
    expect(p.values.approval).toBe(true);
    expect(saved!.notifications.approval).toBe(true);
    expect(p.message).toBe("Saved.");
  });

  it("puts the box back and says why when the save fails", async () => {
    const b = new FakeBackend();
    b.saveSettings = async () => {
      throw { code: "settings", message: "cannot write config.json: disk full" };
    };
    const p = new NotificationPrefs(b, ALL_OFF, () => {});
    await p.set("turn_end", true);
    expect(p.values.turn_end).toBe(false);
    expect(p.message).toContain("disk full");
  });
});

describe("Settings › Notifications", () => {
  function view(settings?: Partial<Settings["notifications"]>) {
    const backend = new FakeBackend();
    backend.settings.notifications = { ...ALL_OFF, ...settings };
    const app = new AppState(backend);
    app.settings = { ...backend.settings };
    const target = document.createElement("div");
    document.body.append(target);
    const c = mount(Notifications, { target, props: { app } });
    flushSync();
    return { backend, app, target, done: () => unmount(c) };
  }

  it("shows one labelled checkbox per kind, in a group named Notifications", () => {
    const { target, done } = view({ extension_crash: true });
    const boxes = [...target.querySelectorAll<HTMLInputElement>("input[type=checkbox]")];
    expect(boxes.map((b) => b.closest("label")?.textContent?.trim())).toEqual(KINDS.map((k) => k.label));
    expect(boxes.map((b) => b.checked)).toEqual([false, false, true]);
    const group = target.querySelector("fieldset")!;
    expect(document.getElementById(group.getAttribute("aria-labelledby")!)?.textContent).toBe(
      "Notifications",
    );
    done();
  });

  it("saves a kind when its box is toggled", async () => {
    const { backend, app, target, done } = view();
    const box = target.querySelector<HTMLInputElement>("[data-test=notify-turn_end]")!;
    box.click();
    await tick();
    flushSync();
    expect(backend.settings.notifications.turn_end).toBe(true);
    expect(app.settings?.notifications.turn_end).toBe(true);
    expect(box.checked).toBe(true);
    expect(target.querySelector("[data-test=notify-message]")?.textContent).toBe("Saved.");
    done();
  });
});
