import { describe, expect, it } from "vitest";
import { signatureSentence, unverified } from "./signature";

describe("signature words", () => {
  it("counts zot and trusted names as vouched for, unsigned and unknown keys as not", () => {
    expect(unverified("signed by zot")).toBe(false);
    expect(unverified("signed by Alice")).toBe(false);
    expect(unverified("signed by an unknown key")).toBe(true);
    expect(unverified("unsigned")).toBe(true);
  });

  it("reads as a sentence", () => {
    expect(signatureSentence("signed by zot")).toBe("Signed by zot.");
    expect(signatureSentence("unsigned")).toBe("Unsigned.");
  });
});
