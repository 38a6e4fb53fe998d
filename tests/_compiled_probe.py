"""Classify inputs under several policies: one JSON row each (shared by both builds).

``tests/test_compiled_build.py`` calls :func:`row` in its own (pure-Python) interpreter, and
runs this file as a script in the compiled build's virtual environment:
``python _compiled_probe.py IN.json OUT.jsonl``, where ``IN.json`` is ``[texts, policies]``.
"""

from __future__ import annotations

import dataclasses
import json
import sys

from deerguard.shell import Classifier, parse, parse_policy


class _FieldName:
    def __init__(self, name: str) -> None:
        self.name = name


def dump(node: object) -> list[str]:
    """A structural dump of a parse tree, without recursion (trees nest deeper than repr()
    can follow)."""
    out: list[str] = []
    stack: list[object] = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, _FieldName):
            out.append(x.name)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            out.append(type(x).__name__)
            for f in reversed(dataclasses.fields(x)):
                stack.append(getattr(x, f.name))
                stack.append(_FieldName(f.name))
        elif isinstance(x, tuple | list):
            out.append(f"[{len(x)}")
            stack.extend(reversed(x))
        else:
            out.append(repr(x))
    return out


def classifiers(policies: dict[str, str]) -> dict[str, Classifier]:
    return {name: Classifier(policy=parse_policy(text)) for name, text in policies.items()}


def row(text: str, by_policy: dict[str, Classifier]) -> str:
    """``text``'s results under every policy and its parse tree, as one JSON line."""
    out: dict[str, object] = {name: clf.classify(text).to_dict()
                              for name, clf in by_policy.items()}
    out["ast"] = dump(parse(text))
    return json.dumps(out)


def main(source: str, target: str) -> None:
    import deerguard.shell._parse as parser
    import deerguard.shell._walk as walk

    assert walk.__file__.endswith(".so") and parser.__file__.endswith(".so"), walk.__file__
    with open(source, encoding="utf-8") as f:
        texts, policies = json.load(f)
    by_policy = classifiers(policies)
    with open(target, "w", encoding="utf-8") as out:
        for text in texts:
            out.write(row(text, by_policy) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
