"""Drives main.py over the protocol, as zot would: hello, registration,
the command and the tool. Run: python3 -m unittest (after zot ran once, so
its SDK is unpacked; or set ZOT_SDK_DIR)."""

import glob
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def sdk_dir():
    if os.environ.get("ZOT_SDK_DIR"):
        return os.environ["ZOT_SDK_DIR"]
    home = os.environ.get("ZOT_HOME") or os.path.join(
        os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state"), "zot")
    trees = sorted(glob.glob(os.path.join(home, "sdk", "*", "python")), key=os.path.getmtime)
    return os.path.dirname(trees[-1]) if trees else None


class ExtensionTest(unittest.TestCase):
    def setUp(self):
        sdk = sdk_dir()
        if sdk is None and not os.path.isdir(os.path.join(HERE, "zot_ext")):
            self.skipTest("zot's SDK not found: start zot once, or set ZOT_SDK_DIR")
        env = dict(os.environ)
        if sdk:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [env.get("PYTHONPATH"), os.path.join(sdk, "python")]))
        self.p = subprocess.Popen([sys.executable, os.path.join(HERE, "main.py")], cwd=HERE, env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def tearDown(self):
        self.send({"type": "shutdown"})
        self.p.wait(timeout=5)
        self.p.stdin.close()
        self.p.stdout.close()

    def send(self, frame):
        self.p.stdin.write(json.dumps(frame) + "\n")
        self.p.stdin.flush()

    def until(self, kind):
        for line in self.p.stdout:
            frame = json.loads(line)
            if frame["type"] == kind:
                return frame
        self.fail(f"no {kind} frame")

    def test_command_and_tool(self):
        self.assertEqual(self.until("hello")["name"], "{{name}}")
        self.send({"type": "hello_ack", "protocol_version": 1, "zot_version": "test", "provider": "p",
                   "model": "m", "cwd": HERE, "extension_dir": HERE, "data_dir": HERE})
        self.until("ready")
        self.send({"type": "command_invoked", "id": "c1", "name": "{{name}}", "args": "hi"})
        self.assertEqual(self.until("command_response")["display"], "hello from {{name}}: hi")
        self.send({"type": "tool_call", "id": "t1", "name": "{{tool}}", "args": {"text": "echo me"}})
        self.assertEqual(self.until("tool_result")["content"][0]["text"], "echo me")


if __name__ == "__main__":
    unittest.main()
