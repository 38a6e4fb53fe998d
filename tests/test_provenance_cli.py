"""The ``deerguard cite`` and ``deerguard hash`` verbs (registered by deerguard.provenance._cli)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from deerguard import cli
from deerguard.provenance import canonical_hash, make_receipt, stamp_receipt


@pytest.fixture(autouse=True)
def _register(monkeypatch: pytest.MonkeyPatch) -> None:
    if "deerguard.provenance._cli" not in cli._VERB_MODULES:
        monkeypatch.setattr(cli, "_VERB_MODULES", (*cli._VERB_MODULES, "deerguard.provenance._cli"))


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def _receipts_file(tmp_path: Path, count: int) -> Path:
    lines = []
    for i in range(count):
        receipt = make_receipt("cat", "success", {"i": i}, f"line {i}", timestamp=i)
        # Both accepted shapes: a bare receipt and stamped metadata.
        data: Any = receipt.to_dict() if i % 2 else stamp_receipt({}, receipt)
        lines.append(json.dumps(data))
    path = tmp_path / "receipts.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("All good [r1] [r3: line 2]", 0),
        ("Made up [r9]", 2),
        ("No citations at all.", 0),
        ("Wrong evidence [r2: line 7]", 2),
    ],
)
def test_cite_exit_status_follows_the_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str, status: int
) -> None:
    receipts = _receipts_file(tmp_path, 3)
    outputs = tmp_path / "outputs.json"
    outputs.write_text(json.dumps({"r2": "line 1", "r3": "line 2"}), encoding="utf-8")
    _stdin(monkeypatch, answer.encode())
    argv = ["cite", "--receipts", str(receipts), "--outputs", str(outputs)]
    assert cli.main(argv) == status


def test_cite_warns_for_omitted_ids_and_prints_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    receipts = _receipts_file(tmp_path, 30)
    answer = tmp_path / "answer.txt"
    answer.write_text("Old [r1] and new [r30].", encoding="utf-8")
    argv = ["cite", "--receipts", str(receipts), "--budget", "300", "--json", str(answer)]
    assert cli.main(argv) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "warn"
    assert report["omitted_ids"] == ["r1"]
    assert [c["id"] for c in report["verified"]] == ["r30"]


@pytest.mark.parametrize(
    "content",
    ['{"v": 1}\n', "not json\n", '{"v": 1, "tool_name": "x"}\n'],
)
def test_cite_rejects_invalid_receipt_files_with_line_numbers(
    tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    receipts = tmp_path / "r.jsonl"
    receipts.write_text(content, encoding="utf-8")
    answer = tmp_path / "a.txt"
    answer.write_text("[r1]", encoding="utf-8")
    assert cli.main(["cite", "--receipts", str(receipts), str(answer)]) == 65
    assert f"{receipts}:1:" in capsys.readouterr().err


def test_cite_missing_file_and_bad_budget(tmp_path: Path) -> None:
    assert cli.main(["cite", "--receipts", str(tmp_path / "missing.jsonl"), "-"]) == 65
    receipts = _receipts_file(tmp_path, 1)
    assert cli.main(["cite", "--receipts", str(receipts), "--budget", "-5", "-"]) == 64
    with pytest.raises(SystemExit) as info:
        cli.main(["cite", "--receipts", str(receipts), "--budget", "many"])
    assert info.value.code == 64


def test_hash_prints_the_canonical_hash_and_canonical_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, b'{"b": [1.0, 2], "a": "x"}')
    assert cli.main(["hash"]) == 0
    assert capsys.readouterr().out.strip() == canonical_hash({"a": "x", "b": [1, 2]})
    _stdin(monkeypatch, b'{"b": [1.0, 2], "a": "x"}')
    assert cli.main(["hash", "--canonical"]) == 0
    assert capsys.readouterr().out == '{"a":"x","b":[1,2]}\n'


@pytest.mark.parametrize("data", [b"{not json", b"[NaN]", b'{"a": Infinity}'])
def test_hash_rejects_invalid_or_non_canonical_json(
    monkeypatch: pytest.MonkeyPatch, data: bytes
) -> None:
    _stdin(monkeypatch, data)
    assert cli.main(["hash"]) == 65
