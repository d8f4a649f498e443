"""Responses, tools, interceptors, panels, ordering, concurrency, shutdown."""

import unittest

from harness import Ext


def call(ext, name, args=""):
    ext.send({"type": "command_invoked", "id": "c", "name": name, "args": args})
    return ext.recv()


def intercept(ext, **fields):
    ext.send({"type": "event_intercept", "id": "i", **fields})
    r = ext.recv()
    assert r["type"] == "event_intercept_response" and r["id"] == "i", r
    return r


class Runtime(unittest.TestCase):
    def setUp(self):
        self.ext = Ext.fixture()
        self.ext.handshake()

    def tearDown(self):
        self.ext.close()

    def test_each_response_action_has_its_own_field(self):
        e = self.ext
        self.assertEqual(call(e, "echo", "hi"), {"type": "command_response", "id": "c", "action": "display", "display": "hi"})
        self.assertEqual(call(e, "prompt", "go")["prompt"], "go")
        self.assertEqual(call(e, "insert", "x")["insert"], "x")
        self.assertEqual(call(e, "fail"), {"type": "command_response", "id": "c", "action": "noop", "error": "it failed"})
        self.assertEqual(call(e, "panel")["open_panel"], {"id": "p1", "title": "Sink", "lines": ["one"]})
        self.assertEqual(call(e, "ECHO", "case")["display"], "case")

    def test_dialogs_wait_for_their_one_answer(self):
        e = self.ext
        e.send({"type": "command_invoked", "id": "c", "name": "ask", "args": ""})
        answers = [
            {"action": "accept", "value": True},
            {"action": "accept", "value": "a"},
            {"action": "decline"},
            {"action": "cancel", "reason": "timeout"},
        ]
        kinds = []
        for a in answers:
            req = e.recv()
            self.assertEqual(req["type"], "ui_request", req)
            kinds.append(req["kind"])
            # A stray answer is ignored; the request still waits for its own.
            e.send({"type": "ui_response", "id": "nobody", "action": "accept"})
            e.send(dict({"type": "ui_response", "id": req["id"]}, **a))
        self.assertEqual(kinds, ["confirm", "select", "input", "form"])
        r = e.recv()
        self.assertEqual(r["display"], "accept:True:None; accept:a:None; decline:None:None; cancel:None:timeout")

    def test_one_way_frames_arrive_before_the_response(self):
        self.ext.send({"type": "command_invoked", "id": "n", "name": "noop", "args": ""})
        self.assertEqual(self.ext.recv(), {"type": "notify", "level": "success", "message": "did it"})
        self.assertEqual(self.ext.recv(), {"type": "clear_notes"})
        self.assertEqual(self.ext.recv(), {"type": "submit", "text": "queued prompt"})
        self.assertEqual(self.ext.recv()["action"], "noop")

    def test_tools_and_deferred_activation(self):
        self.ext.send({"type": "tool_call", "id": "t", "name": "add", "args": {"a": 2, "b": 3}})
        self.assertEqual(self.ext.recv(), {"type": "tool_result", "id": "t", "content": [{"type": "text", "text": "5"}]})
        self.ext.send({"type": "tool_call", "id": "l", "name": "loader", "args": {}})
        self.assertEqual(self.ext.recv()["activate_tools"], ["secret"])

    def test_events_reach_their_handler(self):
        self.ext.send({"type": "event", "event": "turn_end", "stop": "end_turn"})
        self.assertEqual(self.ext.recv()["message"], "turn ended: end_turn")

    def test_interceptors_allow_block_rewrite_and_replace(self):
        e = self.ext
        tc = lambda cmd: intercept(e, event="tool_call", tool_name="bash", tool_args={"command": cmd})
        self.assertEqual(tc("echo"), {"type": "event_intercept_response", "id": "i"})
        self.assertEqual(tc("rm -rf /")["reason"], "refused: rm -rf /")
        self.assertEqual(tc("ls")["modified_args"], {"command": "ls -la"})
        self.assertTrue(intercept(e, event="turn_start", step=10)["block"])
        self.assertNotIn("block", intercept(e, event="turn_start", step=1))
        self.assertEqual(intercept(e, event="assistant_message", text="a SECRET")["replace_text"], "a [redacted]")
        self.assertTrue(intercept(e, event="assistant_message", text="BLOCK")["block"])
        self.assertEqual(intercept(e, event="session_start"), {"type": "event_intercept_response", "id": "i"})

    def test_panel_keys_render_close_and_keep_their_order(self):
        e = self.ext
        keys = ["up", "down", "left", "right", "enter", "tab", "home", "end"] * 5
        for k in keys:
            e.send({"type": "panel_key", "panel_id": "p1", "key": k})
        for k in keys:
            self.assertEqual(e.recv()["lines"], [k])
        e.send({"type": "panel_key", "panel_id": "p1", "key": "rune", "text": "q"})
        self.assertEqual(e.recv(), {"type": "panel_close", "panel_id": "p1"})
        e.send({"type": "panel_close", "panel_id": "p1"})
        self.assertEqual(e.recv()["message"], "panel p1 closed")

    def test_panel_mouse_and_resize_reach_their_typed_handlers_in_order(self):
        e = self.ext
        e.send({"type": "panel_mouse", "panel_id": "p1", "action": "click", "row": 2, "col": 0})
        e.send({"type": "panel_mouse", "panel_id": "p1", "action": "wheel", "delta": -3})
        e.send({"type": "panel_resize", "panel_id": "p1", "cols": 80, "rows": 12})
        e.send({"type": "panel_mouse", "panel_id": "p1", "action": "double_click", "row": 2, "col": 5})
        self.assertEqual(e.recv()["lines"], ["click 2:0"])
        self.assertEqual(e.recv()["lines"], ["wheel -3"])
        self.assertEqual(e.recv(), {"type": "panel_render", "panel_id": "p1", "lines": ["size 80x12"],
                                    "placement": "side"})
        self.assertEqual(e.recv()["lines"], ["double_click 2:5"])

    def test_a_page_message_reaches_its_handler_and_post_message_answers(self):
        e = self.ext
        e.send({"type": "panel_message", "panel_id": "c1", "data": {"clicked": 3}})
        self.assertEqual(e.recv(), {"type": "panel_message", "panel_id": "c1",
                                    "data": {"echo": {"clicked": 3}}})

    def test_open_html_panel_answers_with_the_page_and_no_lines(self):
        import os
        import sys
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
        from zot_ext import Response
        self.assertEqual(Response.open_html_panel("c1", "Chart", "<p>hi</p>").fields,
                         {"action": "open_panel",
                          "open_panel": {"id": "c1", "title": "Chart", "html": "<p>hi</p>",
                                         "lines": []}})

    def test_a_blocked_tool_does_not_delay_a_panel_key(self):
        # No clock: /release is what lets the tool finish, so a serial SDK
        # would answer the tool first (after its 10 s timeout) and fail here.
        e = self.ext
        e.send({"type": "tool_call", "id": "slow", "name": "block", "args": {}})
        e.send({"type": "panel_key", "panel_id": "p1", "key": "down"})
        self.assertEqual(e.recv()["type"], "panel_render")
        e.send({"type": "command_invoked", "id": "r", "name": "release", "args": ""})
        got = sorted([e.recv(), e.recv()], key=lambda f: f["type"])
        self.assertEqual(got[1]["content"][0]["text"], "released")

    def test_shutdown_is_acknowledged_and_the_process_exits_zero(self):
        self.ext.send({"type": "shutdown"})
        self.assertEqual(self.ext.recv(), {"type": "shutdown_ack"})
        self.assertEqual(self.ext.proc.wait(10), 0)


if __name__ == "__main__":
    unittest.main()
