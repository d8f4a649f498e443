"""Startup order: hello first, registrations (incl. on_hello's) then ready."""

import unittest

from harness import Ext


class Handshake(unittest.TestCase):
    def setUp(self):
        self.ext = Ext.fixture()

    def tearDown(self):
        self.ext.close()

    def test_hello_first_and_ready_after_every_registration(self):
        hello, regs = self.ext.handshake()
        self.assertEqual(hello["name"], "kitchen-sink")
        self.assertEqual(hello["capabilities"], ["commands", "tools", "events", "panels", "panel_mouse", "panel_resize"])
        commands = [f["name"] for f in regs if f["type"] == "register_command"]
        self.assertIn("cwd", commands)
        secret = next(f for f in regs if f.get("name") == "secret")
        self.assertTrue(secret["deferred"])
        add = next(f for f in regs if f.get("name") == "add")
        self.assertEqual(add["schema"]["properties"]["a"], {"type": "number"})
        sub = next(f for f in regs if f["type"] == "subscribe")
        self.assertEqual(sub, {"type": "subscribe", "events": ["turn_end"],
                               "intercept": ["tool_call", "turn_start", "assistant_message"]})

    def test_on_hello_command_sees_the_host_cwd(self):
        self.ext.handshake("/somewhere")
        self.ext.send({"type": "command_invoked", "id": "1", "name": "cwd", "args": ""})
        self.assertEqual(self.ext.recv(), {"type": "command_response", "id": "1", "action": "display",
                                           "display": "/somewhere"})

    def test_config_arrives_in_hello_ack_and_config_changed_replaces_it(self):
        self.ext.handshake(config={"units": "metric", "token": "tok-123"})
        self.ext.send({"type": "command_invoked", "id": "1", "name": "units", "args": ""})
        self.assertEqual(self.ext.recv()["display"], "metric")
        self.ext.send({"type": "config_changed", "config": {"units": "imperial", "token": "tok-123"}})
        note = self.ext.recv()
        self.assertEqual(note["type"], "notify")
        self.assertEqual(note["message"], "units now imperial; token set: True")
        self.ext.send({"type": "command_invoked", "id": "2", "name": "units", "args": ""})
        self.assertEqual(self.ext.recv()["display"], "imperial")

    def test_shutdown_before_hello_ack_is_acknowledged(self):
        self.assertEqual(self.ext.recv()["type"], "hello")
        self.ext.send({"type": "shutdown"})
        self.assertEqual(self.ext.recv(), {"type": "shutdown_ack"})
        self.assertEqual(self.ext.proc.wait(10), 0)


if __name__ == "__main__":
    unittest.main()
