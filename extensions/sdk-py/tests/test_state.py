"""Session state (``ctx.state``): hello_ack.state is there from the start,
``set`` sends state_set with the value, an over-limit value raises before
anything is sent, and state_restored replaces the values."""

import unittest

from harness import Ext


def call(ext, name, args=""):
    ext.send({"type": "command_invoked", "id": "c", "name": name, "args": args})
    return ext.recv()


class State(unittest.TestCase):
    def tearDown(self):
        self.ext.close()

    def test_state_is_read_set_and_restored(self):
        self.ext = e = Ext.fixture("state.py")
        e.handshake(state={"plan": ["read"]})
        self.assertEqual(call(e, "show")["display"], '["read"]')
        self.assertEqual(call(e, "add", "write"), {"type": "state_set", "key": "plan", "value": ["read", "write"]})
        self.assertEqual(e.recv()["display"], "2")
        self.assertIn("over the limit of 65536 per value", call(e, "huge")["display"])
        e.send({"type": "state_restored", "state": {"plan": ["older"]}})
        self.assertEqual(e.recv(), {"type": "notify", "level": "info", "message": 'restored {"plan": ["older"]}'})
        self.assertEqual(call(e, "show")["display"], '["older"]')

    def test_no_state_in_hello_ack_reads_as_empty(self):
        self.ext = e = Ext.fixture("state.py")
        e.handshake()
        self.assertEqual(call(e, "show")["display"], "null")


if __name__ == "__main__":
    unittest.main()
