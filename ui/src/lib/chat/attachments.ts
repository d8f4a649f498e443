// Images pasted or dropped into the editor, checked with the backend's own
// rules (bindings/promptImages.ts, generated from the protocol crate) so a
// refusal comes at once, with the limit in the message, not after Send.
import type { ImageInput } from "../bindings/ImageInput";
import { PROMPT_IMAGE_MAX_BYTES, PROMPT_IMAGE_TYPES, PROMPT_IMAGES_MAX } from "../bindings/promptImages";

/** An attached image: what is sent, and a data URL for its thumbnail. */
export interface Attachment {
  name: string;
  image: ImageInput;
  url: string;
  bytes: number;
}

/** Why this file cannot be attached next to `already` others, or null. */
export function problem(file: { name: string; type: string; size: number }, already: number): string | null {
  const what = file.name || "the pasted image";
  if (!PROMPT_IMAGE_TYPES.includes(file.type))
    return `${what}: images must be PNG, JPEG, GIF or WebP; this one is ${file.type || "of an unknown type"}`;
  if (file.size > PROMPT_IMAGE_MAX_BYTES)
    return `${what}: the image is ${(file.size / (1024 * 1024)).toFixed(1)} MiB, over the limit of ${PROMPT_IMAGE_MAX_BYTES / (1024 * 1024)} MiB`;
  if (already >= PROMPT_IMAGES_MAX) return `${what}: at most ${PROMPT_IMAGES_MAX} images per prompt`;
  return null;
}

/** Base64 and nothing else: a data URL built from it cannot break out. */
const BASE64 = /^[A-Za-z0-9+/=\s]*$/;

/** A data URL for an image block (a tool's output, a sent or resumed
 * prompt's image), or null unless it is one of the prompt's image types
 * with base64 data: the transcript is input, and this keeps it inert. */
export function imageDataUrl(image: { mime_type: string; data: string }): string | null {
  if (!PROMPT_IMAGE_TYPES.includes(image.mime_type) || !BASE64.test(image.data)) return null;
  return `data:${image.mime_type};base64,${image.data}`;
}

/** A dropped file the backend read (src-tauri/src/dropped.rs) as an attachment. */
export function fromDropped(d: { name: string; mime_type: string; data: string; bytes: number }): Attachment {
  const image = { mime_type: d.mime_type, data: d.data };
  return { name: d.name, image, url: imageDataUrl(image) ?? "", bytes: d.bytes };
}

/** Reads a checked file into an attachment. */
export async function attach(file: File): Promise<Attachment> {
  const url = await new Promise<string>((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error(`could not read ${file.name}`));
    r.readAsDataURL(file);
  });
  const data = url.slice(url.indexOf(",") + 1);
  return { name: file.name || "pasted image", image: { mime_type: file.type, data }, url, bytes: file.size };
}
