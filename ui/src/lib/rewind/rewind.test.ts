import { describe, expect, it } from "vitest";
import { AppState } from "../app.svelte";
import { FakeBackend } from "../backend/fake";
import { fileCard, outcome } from "./rewind.svelte";
import { toolView } from "../chat/toolview";

async function settle() {
  for (let i = 0; i < 100; i++) await Promise.resolve();
}

async function started() {
  const fake = new FakeBackend();
  const app = new AppState(fake);
  await app.start();
  return { fake, app };
}

describe("rewind", () => {
  it("each prompt's row carries its checkpoint, and Rewind to here previews it", async () => {
    const { fake, app } = await started();
    await app.submit("change things");
    await settle();
    const user = app.chat.items.find((i) => i.kind === "user");
    expect(user && user.kind === "user" && user.checkpoint).toBe("cp-1");
    await app.rewind.open("cp-1");
    expect(app.rewind.preview?.files.map((f) => f.path)).toEqual(["a.txt"]);
    await app.rewind.rewind("both");
    expect(fake.calls.some((c) => JSON.stringify(c.args).includes('"scope":"both"'))).toBe(true);
    expect(app.rewind.checkpoint).toBeNull();
    expect(app.rewind.undo).toBe("cp-undo");
    const status = app.chat.items.at(-1);
    expect(status?.kind === "status" && status.text).toBe(
      "rewind: 1 file restored; conversation rewound to 0 messages",
    );
  });

  it("/rewind opens the newest prompt's checkpoint, or says there is none", async () => {
    const { app } = await started();
    await app.runCommand("rewind", "");
    const said = app.chat.items.at(-1);
    expect(said?.kind === "status" && said.text).toMatch(/no prompt in this conversation has a checkpoint/);
    await app.submit("one");
    await settle();
    await app.submit("two");
    await settle();
    await app.runCommand("rewind", "");
    expect(app.rewind.checkpoint).toBe("cp-2");
  });

  it("a refused rewind keeps the dialog open with the reason", async () => {
    const { fake, app } = await started();
    fake.rpc = async () => {
      throw { code: "backend", message: "rewind: a prompt is running" };
    };
    await app.rewind.open("cp-9");
    expect(app.rewind.error).toMatch(/a prompt is running/);
    expect(app.rewind.checkpoint).toBe("cp-9");
  });

  it("a file of the preview is the diff card from its text now to its text then", () => {
    const card = fileCard(
      { path: "a.txt", change: "modified", outside: true, now: "two\n", then: "one\n" },
      -1,
    );
    const view = toolView(card.name, card.args, card.result, false);
    expect(view.kind).toBe("diff");
    if (view.kind === "diff") {
      expect(view.path).toBe("a.txt");
      expect(view.lines.map((l) => l.op)).toEqual(["-", "+"]);
    }
    const bin = fileCard({ path: "x.bin", change: "added", outside: false, note: "binary" }, -2);
    const bv = toolView(bin.name, bin.args, bin.result, false);
    expect(bv.kind === "diff" && bv.note).toBe("x.bin: binary, not shown");
    expect(outcome(["a"], 3, "code")).toBe("1 file restored");
  });
});
