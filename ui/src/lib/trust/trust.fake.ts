// A fake backend that keeps project trust like the real one (one folder,
// one waiting extension), for the trust state and component tests.
import { FakeBackend } from "../backend/fake";
import type { RpcResultOf } from "../backend/backend";
import type { RpcCommand } from "../bindings/RpcCommand";
import type { TrustStatus } from "../bindings/TrustStatus";

/** A fake that keeps trust like the real backend: one folder, one extension. */
export class TrustFake extends FakeBackend {
  status: TrustStatus = {
    dir: "/work/repo",
    trusted: false,
    remembered: false,
    extensions: [
      {
        name: "guard",
        dir: "/work/repo/.zot/extensions/guard",
        exec: "/work/repo/.zot/extensions/guard/main.py --strict",
        description: "blocks rm -rf",
        shadows_global: "/home/me/.local/state/zot/extensions/guard",
      },
    ],
    trusted_dirs: ["/elsewhere"],
  };
  fail = false;

  override async rpc<C extends RpcCommand>(cmd: C): Promise<RpcResultOf[C["type"]]> {
    // A test double answers only what the UI reads of each result.
    return (await this.#trustAnswer(cmd)) as RpcResultOf[C["type"]];
  }

  async #trustAnswer(cmd: RpcCommand): Promise<unknown> {
    switch (cmd.type) {
      case "trust_status":
        this.calls.push({ method: "rpc", args: cmd });
        return structuredClone(this.status);
      case "trust_project": {
        this.calls.push({ method: "rpc", args: cmd });
        if (this.fail)
          throw { code: "backend", message: "trust_project: cannot write the trust file /h/trust.json" };
        const started = this.status.extensions.map((e) => e.name);
        this.status = {
          ...this.status,
          trusted: true,
          remembered: !!cmd.remember,
          extensions: [],
          trusted_dirs: cmd.remember
            ? [...this.status.trusted_dirs, this.status.dir].sort()
            : this.status.trusted_dirs,
        };
        return { started };
      }
      case "untrust_project": {
        this.calls.push({ method: "rpc", args: cmd });
        this.status = { ...this.status, trusted_dirs: this.status.trusted_dirs.filter((d) => d !== cmd.dir) };
        return { stopped: cmd.dir === this.status.dir ? ["guard"] : [] };
      }
      default:
        return super.rpc(cmd);
    }
  }
}
