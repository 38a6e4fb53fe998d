"""xargs' own options are read once, the same way for every reader: its argument file
(``-a``), its input mode (``-0``, ``-d``) and its batch size (``-n``, ``-L``, ``-l``, ``-I``,
``-i``), in every spelling GNU xargs accepts, and never past its command."""

from __future__ import annotations

import pytest

from deerguard.shell._values import Field
from deerguard.shell._xargs import _batch_size, _xargs_mode, xargs_arg_file


def _fields(*words: str) -> list[Field]:
    return [Field(w, (0, len(w))) for w in words]


@pytest.mark.parametrize(("words", "expected"), [
    (("-a", "list.txt", "rm"), "list.txt"),
    (("-alist.txt", "rm"), "list.txt"),
    (("-0a", "list.txt", "rm"), "list.txt"),
    (("-0alist.txt", "rm"), "list.txt"),
    (("--arg-file=list.txt", "rm"), "list.txt"),
    (("--arg-file", "list.txt", "rm"), "list.txt"),
    (("-n", "1", "-a", "l", "rm"), "l"),
    (("-I", "-a", "rm", "-a", "x"), None),  # -I takes `-a` as its replacement string
    (("-iX", "-a", "l", "rm"), "l"),  # -i's value is only what is attached
    (("rm", "-a", "x"), None),  # rm's options are not xargs'
    (("--", "-a", "x"), None),
    (("-a",), None),
])
def test_the_argument_file_is_read_from_xargs_own_options(words: tuple[str, ...],
                                                           expected: str | None) -> None:
    value = xargs_arg_file(_fields(*words))
    assert (value.text if value is not None else None) == expected


@pytest.mark.parametrize(("words", "expected"), [
    (("-0", "rm"), (True, None)),
    (("--null", "rm"), (True, None)),
    (("-0n1", "rm"), (True, None)),
    (("-d", ",", "rm"), (False, ",")),
    (("-d,", "rm"), (False, ",")),
    (("--delimiter=\\n", "rm"), (False, "\n")),
    (("--delimiter", "\\t", "rm"), (False, "\t")),
    (("-iX0", "rm"), (False, None)),  # X0 is -i's replacement string, not the -0 flag
    (("-l0", "rm"), (False, None)),  # 0 is -l's line count
    (("-I", "0", "rm"), (False, None)),
    (("rm", "-0"), (False, None)),
])
def test_the_input_mode_is_read_from_xargs_own_options(
        words: tuple[str, ...], expected: tuple[bool, str | None]) -> None:
    assert _xargs_mode(_fields(*words)) == expected


@pytest.mark.parametrize(("words", "expected"), [
    (("-n", "2", "rm"), ("n", 2)),
    (("-n2", "rm"), ("n", 2)),
    (("--max-args=3", "rm"), ("n", 3)),
    (("--max-args", "3", "rm"), ("n", 3)),
    (("-L", "2", "rm"), ("L", 2)),
    (("-l", "rm"), ("L", 1)),
    (("-l5", "rm"), ("L", 5)),
    (("--max-lines", "rm"), ("L", 1)),  # an optional value is only ever attached
    (("--max-lines=4", "rm"), ("L", 4)),
    (("-I", "{}", "rm"), ("L", 1)),
    (("-i", "rm"), ("L", 1)),
    (("--replace", "rm"), ("L", 1)),
    (("-0", "rm"), None),
    (("-n", "0", "rm"), None),  # no batch of zero arguments
    (("rm", "-n", "1"), None),
])
def test_the_batch_size_is_read_from_xargs_own_options(
        words: tuple[str, ...], expected: tuple[str, int] | None) -> None:
    assert _batch_size(_fields(*words)) == expected
