import { describe, expect, it } from "vitest";
import { WheelCoalescer, wheelLines } from "./wheel";

describe("wheelLines", () => {
  it("converts pixels, lines and pages", () => {
    expect(wheelLines({ deltaY: 60, deltaMode: 0 }, 20, 10)).toBe(3);
    expect(wheelLines({ deltaY: -2, deltaMode: 1 }, 20, 10)).toBe(-2);
    expect(wheelLines({ deltaY: 1, deltaMode: 2 }, 20, 10)).toBe(10);
  });
});

describe("WheelCoalescer", () => {
  it("sends whole lines, one send at a time, adding up what comes meanwhile", async () => {
    const sent: number[] = [];
    let release: () => void = () => {};
    const c = new WheelCoalescer((d) => {
      sent.push(d);
      return new Promise<void>((r) => (release = r));
    });
    c.add(0.5);
    expect(sent).toEqual([]); // half a line waits
    c.add(0.7);
    expect(sent).toEqual([1]);
    for (let i = 0; i < 50; i++) c.add(1); // the extension is busy
    expect(sent).toEqual([1]);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual([1, 50]);
    release();
    await new Promise((r) => setTimeout(r, 0));
    c.add(-3.4);
    expect(sent).toEqual([1, 50, -3]);
  });
});
