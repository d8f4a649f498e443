// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { attach, fromDropped, imageDataUrl, problem } from "./attachments";

describe("prompt images", () => {
  it("accepts the four types under the limit", () => {
    expect(problem({ name: "a.png", type: "image/png", size: 1000 }, 0)).toBeNull();
    expect(problem({ name: "a.webp", type: "image/webp", size: 5 * 1024 * 1024 }, 7)).toBeNull();
  });

  it("names the type, the size limit or the count limit", () => {
    expect(problem({ name: "a.tiff", type: "image/tiff", size: 10 }, 0)).toBe(
      "a.tiff: images must be PNG, JPEG, GIF or WebP; this one is image/tiff",
    );
    expect(problem({ name: "", type: "", size: 10 }, 0)).toMatch(/^the pasted image: .* of an unknown type$/);
    expect(problem({ name: "big.png", type: "image/png", size: 6 * 1024 * 1024 }, 0)).toBe(
      "big.png: the image is 6.0 MiB, over the limit of 5 MiB",
    );
    expect(problem({ name: "n.png", type: "image/png", size: 1 }, 8)).toBe(
      "n.png: at most 8 images per prompt",
    );
  });

  it("reads a file as base64 with a data URL for the thumbnail", async () => {
    const file = new File([new Uint8Array([137, 80, 78, 71])], "dot.png", { type: "image/png" });
    const a = await attach(file);
    expect(a.image).toEqual({ mime_type: "image/png", data: "iVBORw==" });
    expect(a.url).toBe("data:image/png;base64,iVBORw==");
  });

  it("builds data URLs only for the prompt's image types with base64 data", () => {
    expect(imageDataUrl({ mime_type: "image/png", data: "AA==" })).toBe("data:image/png;base64,AA==");
    expect(imageDataUrl({ mime_type: "image/svg+xml", data: "AA==" })).toBeNull();
    expect(imageDataUrl({ mime_type: "image/png", data: '"><script>' })).toBeNull();
  });

  it("turns a dropped file the backend read into a chip", () => {
    expect(fromDropped({ name: "a.gif", mime_type: "image/gif", data: "R0lG", bytes: 3 })).toEqual({
      name: "a.gif",
      image: { mime_type: "image/gif", data: "R0lG" },
      url: "data:image/gif;base64,R0lG",
      bytes: 3,
    });
  });
});
