// The same echo tool through the TypeScript SDK.
import { Extension } from "../../sdk-ts/dist/index.js";

await new Extension("bench", "1.0.0").tool("echo", "echo", { type: "object" }, (_ctx, args) => args.text ?? "").run();
