import { describe, expect, it } from "vitest";
// The same vectors extensions/host/src/policy/dialog_rules.rs runs: one rule set.
import vectors from "../../../../extensions/host/src/policy/dialog_rules_vectors.json";
import { checkFormValue, checkSchema, fieldProblems, problemText } from "./rules";

type Obj = Record<string, unknown>;

describe("the dialog rules match zot's", () => {
  for (const c of vectors.schemas) {
    it(`schema: ${c.name}`, () => {
      const p = checkSchema(c.schema);
      expect(p ? problemText(p) : null).toBe(c.error);
    });
  }
  for (const c of vectors.values) {
    it(`value: ${c.name}`, () => {
      const schema = (vectors.forms as Record<string, Obj>)[c.form];
      expect(checkSchema(schema)).toBeNull();
      const p = checkFormValue(schema, c.value);
      expect(p ? problemText(p) : null).toBe(c.error);
    });
  }
});

describe("fieldProblems", () => {
  it("names every field at fault at once", () => {
    const schema = vectors.forms.todo as Obj;
    const got = fieldProblems(schema, { count: 9, due: "soon" });
    expect(got).toEqual({
      count: "must be at most 5",
      due: "must be a date like 2026-12-31",
      title: "is required",
    });
  });
});
