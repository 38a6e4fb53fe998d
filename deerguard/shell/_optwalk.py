"""One walker for a tool's own options, read from its arity tables.

Every GNU-style tool spells an option's value the same few ways: ``--opt=VALUE`` (an empty
``--opt=`` too), ``--opt VALUE`` for a long option that takes one, ``-fVALUE`` attached to
its letter, ``-f VALUE`` in the next word, and inside a cluster (``-nf FILE``: ``n`` is a
flag, ``f`` takes the next word; a letter that takes a value ends its cluster). ``--`` ends
the options; ``-`` alone is an operand (stdin). The readers of sed, make, the copy tools and
xargs all walk their words with :func:`walk_options`, so each sees the same options in the
same words.
"""

from __future__ import annotations

from collections.abc import Iterator

from ._values import Field

__all__ = ["operand_fields", "operand_words", "walk_options"]


def walk_options(args: list[Field], short: str = "", long: frozenset[str] = frozenset(), *,
                 optional: str = "", dashdash: bool = True, dynamic: str = "option"
                 ) -> Iterator[tuple[str | None, Field | None, int]]:
    """The options and operands of ``args`` as ``(name, value, index)`` events, in order.

    ``name`` is a long option (``--file``, ``--`` itself) or one short letter (``f``), or
    None for an operand (``value`` is then the operand word); ``index`` is the position in
    ``args`` of the word the option or operand stands in. ``value`` is the text after ``=``
    of a long option (any long option; ``--opt=`` gives an empty one), else the next word
    for a long option in ``long``; for a letter in ``short`` the rest of its word, else the
    next word; for a letter in ``optional`` the rest of its word only, possibly empty
    (``sed -i[SUFFIX]``, ``xargs -i[R]``), which ends the cluster. It is None for an option
    that takes none, and for a value missing at the end of ``args``. A value taken from the
    next word is that very word (``value is args[index + 1]``).

    ``dashdash``: ``--`` ends the options (every later word is an operand); without it
    (make, as it has always been read here) ``--`` is only an option with no value.
    ``dynamic``: how a word with parts not known statically is read: ``"option"`` as its
    known text says (``-f$x`` is ``-f``); ``"operand"`` as an operand; ``"cluster"`` as an
    operand when it is a short-option cluster (``-$x``), as its text says when it is
    ``--...``.
    """
    n = len(args)
    k = 0
    ended = False
    while k < n:
        f = args[k]
        t = f.text
        if ended or t[:1] != "-" or t == "-" or (dynamic == "operand" and not f.static):
            yield None, f, k
            k += 1
            continue
        if t == "--":
            ended = dashdash
            yield t, None, k
            k += 1
            continue
        if t.startswith("--"):
            opt, eq, value = t.partition("=")
            if eq:
                yield opt, Field(value, f.span, f.taint, f.proc), k
            elif opt in long:
                yield opt, args[k + 1] if k + 1 < n else None, k
                k += 1
            else:
                yield opt, None, k
            k += 1
            continue
        if dynamic != "option" and not f.static:
            yield None, f, k
            k += 1
            continue
        step = 1
        for pos in range(1, len(t)):
            letter = t[pos]
            if letter in optional:
                yield letter, Field(t[pos + 1:], f.span, f.taint, f.proc), k
                break
            if letter not in short:
                yield letter, None, k
                continue
            if pos + 1 < len(t):
                yield letter, Field(t[pos + 1:], f.span, f.taint, f.proc), k
            else:
                step = 2
                yield letter, args[k + 1] if k + 1 < n else None, k
            break
        k += step


def operand_fields(args: list[Field], valued: frozenset[str], limit: int = 1 << 30
                   ) -> list[Field]:
    """The words of ``args`` that are no option, at most ``limit``: a word that starts with
    ``-`` is an option, and one whose whole text is in ``valued`` also takes the next word
    (``socat -d -lf FILE A B``, ``aws --region R ec2 ...``, ``xxd -c 16 IN OUT``)."""
    out: list[Field] = []
    skip = False
    for f in args:
        t = f.text
        if skip:
            skip = False
        elif t.startswith("-") and len(t) > 1:
            skip = t in valued
        else:
            out.append(f)
            if len(out) >= limit:
                break
    return out


def operand_words(args: list[Field], valued: frozenset[str], limit: int = 1 << 30) -> list[str]:
    """The texts of :func:`operand_fields`."""
    return [f.text for f in operand_fields(args, valued, limit)]
