"""YAML policy files: parsed with the safe loader into data and the line of every key.

Imported only when a YAML policy is read, so importing deerguard does not load PyYAML.
"""

from __future__ import annotations

from typing import Any

import yaml

from .errors import PolicyError

__all__ = ["parse_yaml"]

# libyaml's safe loader when PyYAML was built with it (about 10x faster to compose); both
# give nodes with start marks for line numbers and construct only plain data.
_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, file: str) -> tuple[Any, dict[str, int]]:
    """The data of YAML ``text`` and the 1-based line of each dotted key path.

    Raises :class:`PolicyError` naming ``file`` (and the line, when known) for syntax errors,
    text with no UTF-8 form, and anchors or aliases (refused to rule out alias bombs).
    """
    try:
        node = yaml.compose(text, Loader=_YAML_LOADER)
    except RecursionError:
        raise PolicyError(
            "not valid YAML: nested too deeply", file=file, hint="flatten the document"
        ) from None
    except UnicodeError:
        # libyaml re-encodes the text; lone surrogates cannot be, and never mean anything.
        raise PolicyError(
            "not valid YAML: the text has characters with no UTF-8 form (lone surrogates)",
            file=file,
            hint="save the file as UTF-8",
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise PolicyError(
            f"not valid YAML: {getattr(exc, 'problem', None) or exc}",
            file=file,
            line=mark.line + 1 if mark is not None else None,
            hint="check the YAML syntax at that line",
        ) from None
    keys: dict[str, int] = {}
    if node is None:
        return {}, keys
    if "*" in text and _has_alias(node):
        raise PolicyError(
            "YAML anchors and aliases are not allowed in policy files",
            file=file,
            hint="write each value out in full",
        )
    # Build the data from the node already composed: parsing the text a second time
    # with safe_load doubled the cost of every YAML policy.
    loader = _YAML_LOADER("")
    try:
        data = loader.construct_document(node)
    except (yaml.YAMLError, RecursionError) as exc:
        raise PolicyError(f"not valid YAML: {exc}", file=file) from None
    finally:
        loader.dispose()
    _yaml_key_lines(node, "", keys)
    return data, keys


def _yaml_key_lines(node: yaml.Node, prefix: str, out: dict[str, int]) -> None:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                continue
            path = f"{prefix}.{key_node.value}" if prefix else str(key_node.value)
            out.setdefault(path, key_node.start_mark.line + 1)
            _yaml_key_lines(value_node, path, out)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            path = f"{prefix}.{index}" if prefix else str(index)
            out.setdefault(path, item.start_mark.line + 1)
            _yaml_key_lines(item, path, out)


def _has_alias(root: yaml.Node) -> bool:
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            return True  # the same node object reached twice is an alias
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return False
