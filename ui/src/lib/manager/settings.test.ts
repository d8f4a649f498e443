import { describe, expect, it } from "vitest";
import { AppState } from "../app.svelte";
import { FakeBackend } from "../backend/fake";
import type { SettingSpec } from "../bindings/SettingSpec";
import { checkField, collect, fieldOfError, initialDraft } from "./settings";
import { ManagerState } from "./manager.svelte";

const schema: Record<string, SettingSpec> = {
  units: { type: "enum", title: "Units", enum: ["metric", "imperial"], default: "metric" },
  days: { type: "number", title: "Days", min: 1, max: 7 },
  verbose: { type: "boolean", title: "Verbose" },
  folder: { type: "path", title: "Folder" },
  api_key: { type: "string", title: "API key", sensitive: true, required: true },
};
const order = ["units", "days", "verbose", "folder", "api_key"];
const SECRET = "canary-ui-secret-WXYZ";

function setup() {
  const fake = new FakeBackend();
  fake.config.weather = { schema, order, values: {} };
  return { fake, m: new ManagerState(new AppState(fake)) };
}

describe("the settings form's rules", () => {
  it("refuses what the schema forbids, naming the rule", () => {
    expect(checkField(schema.days, "x", false).error).toBe("must be a number");
    expect(checkField(schema.days, "9", false).error).toBe("must be at most 7");
    expect(checkField(schema.days, "0", false).error).toBe("must be at least 1");
    expect(checkField(schema.units, "kelvin", false).error).toContain("must be one of metric, imperial");
    expect(checkField(schema.api_key, "", false).error).toBe("required");
    expect(checkField(schema.days, "3", false).value).toBe(3);
    expect(checkField(schema.days, "", false).value).toBeNull();
    // An untouched stored secret is left alone, not cleared.
    expect(checkField(schema.api_key, "", true).skip).toBe(true);
  });

  it("reads the setting a host error names", () => {
    expect(fieldOfError("ext_config_set: extension 'w': setting 'folder': path \"/x\" does not exist")).toBe(
      "folder",
    );
    expect(fieldOfError("no extension 'w'")).toBeNull();
  });
});

describe("Configure…", () => {
  it("loads the schema, saves typed values, and never holds a stored secret", async () => {
    const { fake, m } = setup();
    await m.configure("weather");
    const form = m.configFor!;
    expect(form.result?.missing).toEqual(["api_key"]);
    expect(await form.save()).toBe(false);
    expect(form.errors.api_key).toBe("required");
    expect(fake.calls.some((c) => (c.args as { type?: string })?.type === "ext_config_set")).toBe(false);

    form.draft.api_key = SECRET;
    form.draft.days = "5";
    form.draft.units = "imperial";
    form.draft.verbose = true;
    expect(await form.save()).toBe(true);
    expect(fake.config.weather.values).toMatchObject({
      api_key: SECRET,
      days: 5,
      units: "imperial",
      verbose: true,
    });
    // What the page holds afterwards: the mask only.
    expect(form.result?.values.api_key).toBe("••••WXYZ");
    expect(form.draft.api_key).toBe("");
    expect(JSON.stringify({ r: form.result, d: form.draft })).not.toContain(SECRET);

    // Saving again without touching the secret does not send it at all.
    await form.save();
    const sets = fake.calls.filter((c) => (c.args as { type?: string })?.type === "ext_config_set");
    expect((sets.at(-1)!.args as { values: Record<string, unknown> }).values).not.toHaveProperty("api_key");
    expect(fake.config.weather.values.api_key).toBe(SECRET);
  });

  it("shows a host refusal under the field it names", async () => {
    const { m } = setup();
    await m.configure("weather");
    const form = m.configFor!;
    form.draft.api_key = SECRET;
    form.draft.folder = "/nowhere";
    const fake = m.app.backend as FakeBackend;
    const real = fake.rpc.bind(fake);
    fake.rpc = ((cmd: { type: string }) =>
      cmd.type === "ext_config_set"
        ? Promise.reject({
            code: "ext_config_set",
            message:
              "ext_config_set: extension 'weather': setting 'folder': path \"/nowhere\" does not exist; nothing was stored",
          })
        : real(cmd as never)) as typeof fake.rpc;
    expect(await form.save()).toBe(false);
    expect(form.errors.folder).toContain("does not exist");
    expect(form.error).toBeNull();
  });

  it("starts every field from the stored values, the secret empty", async () => {
    const { fake } = setup();
    fake.config.weather.values = { days: 2, api_key: SECRET };
    const r = await fake.rpc({ type: "ext_config_get", name: "weather" });
    expect(initialDraft(r)).toEqual({ units: "metric", days: "2", verbose: false, folder: "", api_key: "" });
    expect(collect(r, initialDraft(r)).values).toEqual({
      units: "metric",
      days: 2,
      verbose: false,
      folder: null,
    });
  });
});
