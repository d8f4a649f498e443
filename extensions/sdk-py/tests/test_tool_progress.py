"""Long tool calls: a handler with a third parameter reports progress and
stops on tool_cancel, sending nothing more for that id."""

import unittest

from harness import Ext


class ToolProgress(unittest.TestCase):
    def setUp(self):
        self.ext = Ext.fixture("slow_tool.py")
        self.ext.handshake()

    def tearDown(self):
        self.ext.close()

    def test_progress_then_result(self):
        self.ext.send({"type": "tool_call", "id": "t1", "name": "build", "args": {"steps": 3}})
        frames = [self.ext.recv() for _ in range(4)]
        progress = [f for f in frames if f["type"] == "tool_progress"]
        self.assertEqual([f["progress"] for f in progress], [1, 2, 3])
        self.assertEqual(progress[0], {"type": "tool_progress", "id": "t1", "message": "step 1",
                                       "progress": 1, "total": 3, "partial": "unit 1\n"})
        self.assertEqual(frames[-1]["type"], "tool_result")
        self.assertEqual(frames[-1]["content"][0]["text"], "built")

    def test_cancel_stops_the_handler_and_nothing_more_is_sent_for_its_id(self):
        self.ext.send({"type": "tool_call", "id": "t2", "name": "build", "args": {}})
        first = self.ext.recv()
        self.assertEqual(first["type"], "tool_progress")
        self.ext.send({"type": "tool_cancel", "id": "t2", "reason": "aborted"})
        # A two-parameter tool still answers; once it has, and the
        # shutdown_ack after it, no frame for t2 came after the cancel
        # beyond progress already in flight.
        self.ext.send({"type": "tool_call", "id": "q", "name": "quick", "args": {}})
        seen = []
        while True:
            f = self.ext.recv()
            seen.append(f)
            if f["type"] == "tool_result" and f["id"] == "q":
                break
        import time
        time.sleep(0.3)
        self.ext.send({"type": "shutdown"})
        while True:
            f = self.ext.recv()
            if f["type"] == "shutdown_ack":
                break
            seen.append(f)
        self.assertFalse([f for f in seen if f["type"] == "tool_result" and f["id"] == "t2"], seen)
        self.assertIn("stopped on aborted", self.ext.log_text())


if __name__ == "__main__":
    unittest.main()
