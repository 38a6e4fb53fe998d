"""Files another language's code writes with fetched data (``urlretrieve(u, p)``,
``open(p, 'wb').write(r.read())``, ``fs.writeFileSync(p, t)``, ``r.pipe(createWriteStream(p))``):
:mod:`._fetchrun` records them as fetched, so running them is a download-and-run.
"""

from __future__ import annotations

import re

from ._fetchflow import MAX, OPENS, PARAM, WINDOW, FetchFlow, bare, first_open, word_before

__all__ = ["FetchFiles"]

_WRITES = re.compile(r"(writeFileSync|writeFile|appendFileSync|appendFile|"
                     r"file_put_contents|writeTextFile|writeTextFileSync|binwrite|write)"
                     r"[ \t]*\(")
_DOWNLOADS = frozenset({"urlretrieve", "getstore", "download", "copy"})
_STREAMS = frozenset({"pipe", "pipeline", "copyfileobj", "copy_stream", "pipeTo", "write",
                      "write_bytes", "write_text", "writelines", "fwrite", "print", "syswrite"})
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")


class FetchFiles(FetchFlow):
    """A code string's fetched data, and the files it writes with it."""

    def fetched_files(self) -> list[str]:
        """Paths this code writes with fetched data."""
        text = self.text
        out: list[str] = []
        for at in self.spots:  # urlretrieve(u, '/tmp/x'), getstore(u, f), copy('http..', f)
            if word_before(text, at)[0] in _DOWNLOADS:
                args, _close = self._args(at)
                if len(args) >= 2:
                    path = self._literal(*args[1])
                    if path is not None:
                        out.append(path)
        handles = self._handles()
        hits = 0
        for m in _WRITES.finditer(text):  # fs.writeFileSync(p, data), File.write(p, data)
            if not bare(text, m.start()):
                continue
            hits += 1
            if hits > MAX:
                break
            name = m.group(1)
            receiver = word_before(text, m.start() - 1)[0] if text[m.start() - 1] == "." else ""
            args, _close = self._args(m.end() - 1)
            if name == "write" and receiver not in ("File", "IO", "Bun"):
                continue
            if len(args) >= 2 and any(self._tainted(a, b) for a, b in args[1:]):
                path = self._literal(*args[0])
                if path is not None:
                    out.append(path)
        for pos in [*self.spots, *self.refs][:MAX * 2]:  # r.pipe(createWriteStream(p))
            out.extend(self._streamed(pos, handles))
        for handle, path in handles.items():  # f.write(chunk), with f bound to open(p, 'wb')
            at = text.find(handle + ".write")
            for _ in range(8):
                if at < 0:
                    break
                k = text.find("(", at)
                if k >= 0 and k - at <= len(handle) + 12:
                    args, _close = self._args(k)
                    if any(self._tainted(a, b) for a, b in args):
                        out.append(path)
                        break
                at = text.find(handle + ".write", at + 1)
        return out

    def _streamed(self, pos: int, handles: dict[str, str]) -> list[str]:
        """Stream copies on the chain at ``pos`` or around it into a file."""
        text = self.text
        out: list[str] = []
        # Inside a copy call: shutil.copyfileobj(r, f), pipeline(res, createWriteStream(p)).
        paren = text.rfind("(", max(0, pos - 80), pos)
        name, name_at = word_before(text, paren) if paren >= 0 and ")" not in \
            text[paren:pos] else ("", 0)
        spans: list[tuple[int, int]] = []
        if name in _STREAMS:
            args, _close = self._args(paren)
            spans.extend(args)
            if name_at > 0 and text[name_at - 1] == ".":  # open(p, 'wb').write(data)
                path = self._receiver_path(name_at - 1, handles)
                if path is not None:
                    out.append(path)
        # On the chain: res.pipe(fs.createWriteStream(p)).
        j = self.ref_ends.get(pos, pos)
        for _ in range(6):
            if text[j:j + 1] == "(":
                _args, close = self._args(j)
                if close < 0:
                    break
                j = close + 1
            elif text[j:j + 1] == ".":
                n = _IDENT.match(text, j + 1)
                if n is None:
                    break
                j = n.end()
                if n.group() in _STREAMS and text[j:j + 1] == "(":
                    args, _close = self._args(j)
                    spans.extend(args)
            else:
                break
        for a, b in spans:
            target = text[a:b].strip()
            if target in handles:
                out.append(handles[target])
                continue
            opened = first_open(text, a, b)
            if opened is not None:
                args, _close = self._args(opened.end() - 1)
                if args:
                    path = self._literal(*args[0])
                    if path is not None:
                        out.append(path)
        return out

    def _receiver_path(self, dot: int, handles: dict[str, str]) -> str | None:
        """The file written through the receiver ending at ``dot``: a handle name, or an
        inline ``open(p, 'wb')`` / ``Path(p)``."""
        text = self.text
        if text[dot - 1:dot] != ")":
            return handles.get(word_before(text, dot)[0])
        depth = 0
        j = dot - 1
        floor = max(0, dot - WINDOW)
        while j >= floor:
            c = text[j]
            depth += 1 if c == ")" else -1 if c == "(" else 0
            if depth == 0:
                break
            j -= 1
        opened = first_open(text, self._callee_start(j), j + 1)
        if j < floor or opened is None or opened.end() - 1 != j:
            return None
        args, _close = self._args(j)
        mode = self._literal(*args[1]) if len(args) > 1 else None
        if not args or (opened.group(1) in ("open", "fopen", "File.open") and (
                mode is None or not any(c in mode for c in "wax"))):
            return None
        return self._literal(*args[0])

    def _handles(self) -> dict[str, str]:
        """Names bound to files opened for writing: ``f = open(p, 'wb')``, ``with open(p,
        'wb') as f``, ``File.open(p, 'wb') { |f| ..}``, ``fs.createWriteStream(p)``."""
        text = self.text
        out: dict[str, str] = {}
        count = 0
        for m in OPENS.finditer(text):
            if not bare(text, m.start()):
                continue
            count += 1
            if count > MAX:
                break
            args, close = self._args(m.end() - 1)
            if not args:
                continue
            path = self._literal(*args[0])
            mode = self._literal(*args[1]) if len(args) > 1 else None
            if path is None or (m.group(1) in ("open", "fopen", "File.open") and (
                    mode is None or not any(c in mode for c in "wax"))):
                continue
            names = self._bound_at([(self._callee_start(m.end() - 1), m.end() - 1)])
            for name in names:
                out[name] = path
            if close > 0:
                p = PARAM.match(text, close + 1)
                if p is not None and p.group(4):
                    out[p.group(4)] = path
        return out
