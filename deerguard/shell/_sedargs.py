"""sed's arguments that may name files: its script is code, not a path.

``sed -i 's/^DEBUG=.*/DEBUG=false/' .env`` has one file, ``.env``. Read as a path, the
script ``s/^DEBUG=.*/DEBUG=false/`` holds ``.*/DEBUG=false``, a glob that meets secret
globs such as ``~/.ssh/*`` (``.*`` matches ``.ssh``): an everyday edit blocked as a secret
read. The script's own files (``r FILE``, ``w FILE``, ``s///w FILE``) are checked by
``_sedfiles`` from the script itself; ``-f FILE`` names a real file and stays.
"""

from __future__ import annotations

from ._values import Field

__all__ = ["SEDS", "sed_path_args"]

SEDS = frozenset({"sed", "gsed"})

_SHORT_VALUED = frozenset("efl")  # -e SCRIPT, -f FILE, -l N
_LONG_VALUED = frozenset({"--expression", "--file", "--line-length"})


def sed_path_args(args: list[Field]) -> list[Field]:
    """``args`` without the words that hold sed's script: ``-e``/``--expression`` values,
    or the first operand when neither ``-e`` nor ``-f`` gives one."""
    kept: list[Field] = []
    given = False  # -e or -f gave the script
    first: int | None = None  # position in kept of the first operand
    k = 0
    n = len(args)
    ended = False
    while k < n:
        f = args[k]
        text = f.text
        if ended or not text.startswith("-") or text == "-":
            if first is None:
                first = len(kept)
            kept.append(f)
            k += 1
            continue
        if text == "--":
            ended = True
            k += 1
            continue
        if text.startswith("--"):
            opt, eq, _ = text.partition("=")
            if opt in _LONG_VALUED:
                given = given or opt != "--line-length"
                if opt == "--expression":  # the script: neither this word nor its value
                    k += 1 if eq else 2
                    continue
                if not eq and k + 1 < n:
                    kept.append(f)
                    f = args[k + 1]
                    k += 1
            kept.append(f)
            k += 1
            continue
        step = 1
        script = False
        for pos in range(1, len(text)):
            letter = text[pos]
            if letter == "i":
                break  # -i[SUFFIX]: the rest of the word is a backup suffix
            if letter in _SHORT_VALUED:
                given = given or letter != "l"
                script = letter == "e"
                if pos + 1 == len(text):
                    step = 2
                break
        if not script:
            kept.extend(args[k:k + step])
        k += step
    if not given and first is not None:
        del kept[first]
    return kept
