"""Native Casbin policy files (``policy.csv``) read and validated with line numbers.

Rows must fit deerguard's model: ``p, sub, dom, typ, obj, act, eft`` with a known resource
type, an action of that type (or ``*``), ``allow``/``deny`` and a valid name pattern; and
``g, member, parent`` links between roles. Every problem raises
:class:`~deerguard.errors.PolicyError` naming file and line.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import PolicyError
from ._glob import pattern_problem
from ._types import RESOURCE_ACTIONS, PolicyRow, PolicySet, RoleLink

__all__ = ["parse_policy_csv", "read_text"]


def read_text(path: str | Path, /) -> str:
    """Read a model or policy file as UTF-8 (a leading BOM is dropped); unreadable: PolicyError."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(
            f"cannot read file: {exc}", file=str(path), hint="pass a readable UTF-8 file"
        ) from None


def _literal(value: str, *, file: str, line: int, what: str) -> str:
    problem = pattern_problem(value)
    if problem is None and "*" in value and not (what == "dom" and value == "*"):
        problem = f"{what} {value!r} contains '*'; only names (obj) may be globs"
    if problem is not None:
        raise PolicyError(f"{what}: {problem}", file=file, line=line, key=what)
    return value


def _p_row(fields: list[str], *, file: str, line: int) -> PolicyRow:
    if len(fields) != 6:
        raise PolicyError(
            f"a p row has 6 fields after 'p', got {len(fields)}",
            file=file,
            line=line,
            hint="write p, role, tenant-or-*, type, name, action-or-*, allow-or-deny",
        )
    sub, dom, typ, obj, act, eft = fields
    _literal(sub, file=file, line=line, what="sub")
    _literal(dom, file=file, line=line, what="dom")
    if typ not in RESOURCE_ACTIONS:
        raise PolicyError(
            f"unknown resource type {typ!r}",
            file=file,
            line=line,
            key="typ",
            hint=f"use one of {', '.join(RESOURCE_ACTIONS)}",
        )
    if act != "*" and act not in RESOURCE_ACTIONS[typ]:
        raise PolicyError(
            f"{typ} has no action {act!r}",
            file=file,
            line=line,
            key="act",
            hint=f"use * or one of {', '.join(RESOURCE_ACTIONS[typ])}",
        )
    problem = pattern_problem(obj)
    if problem is not None:
        raise PolicyError(f"obj: {problem}", file=file, line=line, key="obj")
    if eft not in ("allow", "deny"):
        raise PolicyError(
            f"effect must be allow or deny, got {eft!r}", file=file, line=line, key="eft"
        )
    return PolicyRow(sub, dom, typ, obj, act, eft, f"{file}:{line}")  # type: ignore[arg-type]


def parse_policy_csv(text: str, /, *, file: str, default_role: str | None = None) -> PolicySet:
    """Parse and validate Casbin policy CSV into a :class:`PolicySet`.

    Known roles are every ``p`` subject and every role named in a ``g`` row.
    """
    rows: list[PolicyRow] = []
    links: list[RoleLink] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split(",")]
        kind, rest = fields[0], fields[1:]
        if kind == "p":
            rows.append(_p_row(rest, file=file, line=number))
        elif kind == "g":
            if len(rest) != 2:
                raise PolicyError(
                    f"a g row has 2 fields after 'g', got {len(rest)}",
                    file=file,
                    line=number,
                    hint="write g, member-role, parent-role",
                )
            member = _literal(rest[0], file=file, line=number, what="member")
            parent = _literal(rest[1], file=file, line=number, what="parent")
            links.append(RoleLink(member, parent, f"{file}:{number}"))
        else:
            raise PolicyError(
                f"unknown row type {kind!r}",
                file=file,
                line=number,
                hint="rows start with 'p,' (permission) or 'g,' (role inheritance)",
            )
    linked = {role for link in links for role in (link.member, link.parent)}
    roles = frozenset({row.sub for row in rows} | linked)
    return PolicySet(tuple(rows), tuple(links), roles, default_role, file)
