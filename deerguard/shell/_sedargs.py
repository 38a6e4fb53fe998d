"""sed's arguments that may name files: its script is code, not a path.

``sed -i 's/^DEBUG=.*/DEBUG=false/' .env`` has one file, ``.env``. Read as a path, the
script ``s/^DEBUG=.*/DEBUG=false/`` holds ``.*/DEBUG=false``, a glob that meets secret
globs such as ``~/.ssh/*`` (``.*`` matches ``.ssh``): an everyday edit blocked as a secret
read. The script's own files (``r FILE``, ``w FILE``, ``s///w FILE``) are checked by
``_sedfiles`` from the script itself; ``-f FILE`` names a real file and stays.
"""

from __future__ import annotations

from ._optwalk import walk_options
from ._values import Field

__all__ = ["SEDS", "sed_path_args"]

SEDS = frozenset({"sed", "gsed"})

# sed's options that take a value: -e SCRIPT, -f FILE, -l N (and their long names);
# -i[SUFFIX] takes only one attached to it. _scripts.sed_tool reads the same tables.
SED_SHORT = "efl"
SED_LONG = frozenset({"--expression", "--file", "--line-length"})


def sed_path_args(args: list[Field]) -> list[Field]:
    """``args`` without the words that hold sed's script: ``-e``/``--expression`` values,
    or the first operand when neither ``-e`` nor ``-f`` gives one (and without ``--``)."""
    drop: set[int] = set()
    given = False  # -e or -f gave the script
    first: int | None = None  # index of the first operand
    n = len(args)
    for name, value, k in walk_options(args, SED_SHORT, SED_LONG, optional="i"):
        if name is None:
            first = k if first is None else first
        elif name == "--":
            drop.add(k)
        elif name in ("e", "--expression"):  # the script: neither this word nor its value
            given = True
            drop.add(k)
            if k + 1 < n and value is args[k + 1]:
                drop.add(k + 1)
        elif name in ("f", "--file"):
            given = True
    if not given and first is not None:
        drop.add(first)
    return [f for k, f in enumerate(args) if k not in drop] if drop else list(args)
