"""Bad frames and failing handlers never kill the extension."""

import unittest

from harness import Ext


class BadInput(unittest.TestCase):
    def setUp(self):
        self.ext = Ext.fixture()
        self.ext.handshake()

    def tearDown(self):
        self.ext.close()

    def still_alive(self):
        self.ext.send({"type": "command_invoked", "id": "ok", "name": "echo", "args": "alive"})
        self.assertEqual(self.ext.recv()["display"], "alive")

    def test_a_line_that_is_not_json_is_logged_and_skipped(self):
        self.ext.send_raw(b"this is not json {")
        self.ext.send_raw(b"\xff\xfe garbage")
        self.ext.send_raw(b"[1,2]")
        self.still_alive()
        self.assertIn("not JSON", self.ext.log_text())

    def test_an_unknown_frame_type_is_logged_and_skipped(self):
        self.ext.send({"type": "from_the_future"})
        self.still_alive()
        self.assertIn("unknown frame type 'from_the_future'", self.ext.log_text())

    def test_a_tool_call_for_an_unknown_tool_gets_an_error_result(self):
        self.ext.send({"type": "tool_call", "id": "u", "name": "nope", "args": {}})
        r = self.ext.recv()
        self.assertTrue(r["is_error"])
        self.assertIn("no tool named 'nope'", r["content"][0]["text"])
        self.still_alive()

    def test_an_unknown_command_gets_an_error_response(self):
        self.ext.send({"type": "command_invoked", "id": "u", "name": "nope", "args": ""})
        self.assertIn("/nope", self.ext.recv()["error"])
        self.still_alive()

    def test_a_raising_command_becomes_an_error_response(self):
        self.ext.send({"type": "command_invoked", "id": "b", "name": "boom", "args": ""})
        r = self.ext.recv()
        self.assertIn("RuntimeError: kaboom in a command", r["error"])
        self.assertIn("Traceback", self.ext.log_text())
        self.still_alive()

    def test_a_raising_tool_becomes_an_error_result(self):
        self.ext.send({"type": "tool_call", "id": "x", "name": "explode", "args": {}})
        r = self.ext.recv()
        self.assertTrue(r["is_error"])
        self.assertIn("tool blew up", r["content"][0]["text"])
        self.still_alive()

    def test_a_raising_interceptor_allows_and_says_why(self):
        self.ext.send({"type": "event_intercept", "id": "i", "event": "tool_call", "tool_name": "x",
                       "tool_args": {"command": "panic"}})
        r = self.ext.recv()
        self.assertNotIn("block", r)
        self.assertIn("interceptor blew up", r["reason"])

    def test_stray_prints_go_to_stderr_not_the_wire(self):
        self.ext.send({"type": "command_invoked", "id": "p", "name": "print", "args": "zzz"})
        self.assertEqual(self.ext.recv()["display"], "printed")
        self.still_alive()
        self.assertIn("stray stdout text zzz", self.ext.log_text())


if __name__ == "__main__":
    unittest.main()
