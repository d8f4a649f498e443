"""The SDK's modules depend on each other one way only: wire and the frame
helpers at the bottom, the registrations above them, the runtime above that,
``Extension`` (which runs itself) on top. This reads every relative import in
``zot_ext/``, those inside functions and under ``TYPE_CHECKING`` included (a
deferred import is still a dependency), and fails, naming the loop, if a
module reaches one that reaches it back."""

import ast
import os
import unittest
from typing import Dict, List, Optional, Set

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "zot_ext")

Graph = Dict[str, Set[str]]


def imports(source: str) -> Set[str]:
    """The sibling modules a module's source imports relatively."""
    out: Set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:  # `from . import a, b`
                out.update(a.name for a in node.names)
    return out


def graph() -> Graph:
    g: Graph = {}
    for name in sorted(os.listdir(PACKAGE)):
        if not name.endswith(".py") or name == "__init__.py":
            continue  # the package root re-exports everything
        module = name[:-3]
        with open(os.path.join(PACKAGE, name), encoding="utf-8") as f:
            g[module] = imports(f.read()) - {module}
    return g


def find_cycle(g: Graph) -> Optional[List[str]]:
    """A cycle in ``g`` as the modules around it, the first repeated at the end."""
    done: Set[str] = set()

    def visit(m: str, stack: List[str]) -> Optional[List[str]]:
        if m in stack:
            return stack[stack.index(m):] + [m]
        if m in done:
            return None
        for d in sorted(g.get(m, ())):
            c = visit(d, stack + [m])
            if c:
                return c
        done.add(m)
        return None

    for m in sorted(g):
        c = visit(m, [])
        if c:
            return c
    return None


class ModuleGraph(unittest.TestCase):
    def test_the_sdk_modules_form_no_cycle(self):
        g = graph()
        # The reading found the modules and their imports (an empty graph has no cycle either).
        self.assertIn("context", g["runtime"], g)
        self.assertIn("runtime", g["extension"], g)
        cycle = find_cycle(g)
        self.assertIsNone(cycle, "Python SDK modules import each other in a cycle: "
                          f"{' → '.join(cycle or [])}; move what both need into a lower module")

    def test_the_checker_sees_deferred_imports_and_a_cycle(self):
        src = "from .a import X\nfrom . import b\ndef f():\n    from .c import Y\nimport json\nfrom typing import Any\n"
        self.assertEqual(imports(src), {"a", "b", "c"})
        g: Graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}}
        self.assertEqual(find_cycle(g), ["a", "b", "c", "a"])
        g["c"] = set()
        self.assertIsNone(find_cycle(g))


if __name__ == "__main__":
    unittest.main()
