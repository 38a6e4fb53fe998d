"""The contract every adapter keeps, run against each real framework adapter.

allow, deny, a guard that raises (fail closed and fail open), the visibility filter, two guards
in pinned order, and the async path. The drivers in ``_adapter_harness`` run the frameworks
themselves (fake models and in-memory transports, no network).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from _adapter_harness import DRIVERS, Driver

from deerguard.adapters.hooks import Decision, HookContext, ModelCall, ToolCall, ToolResult


class DenyText:
    """Denies calls whose ``text`` argument is in ``bad``."""

    name = "deny_text"

    def __init__(self, bad: str = "bad", log: list[str] | None = None) -> None:
        self.bad = bad
        self.log = log

    def before_tool(self, ctx: HookContext, call: ToolCall) -> Decision | None:
        if self.log is not None:
            self.log.append(self.name)
        if call.args.get("text") == self.bad:
            return Decision.deny("test.bad-text", f"text {self.bad!r} is not allowed")
        return None


class Named(DenyText):
    def __init__(self, name: str, log: list[str], bad: str = "never") -> None:
        super().__init__(bad, log)
        self.name = name


class Raises:
    name = "raises"

    def before_tool(self, ctx: HookContext, call: ToolCall) -> None:
        raise RuntimeError("guard bug")


class RaisesOnModel:
    name = "raises_on_model"

    def before_model(self, ctx: HookContext, call: ModelCall) -> None:
        raise RuntimeError("guard bug")


class HideSecret:
    def before_model(self, ctx: HookContext, call: ModelCall) -> ModelCall:
        return replace(call, tools=tuple(t for t in call.tools if t.name != "secret"))


@pytest.fixture(params=DRIVERS, ids=[d.name for d in DRIVERS])
def driver(request: Any) -> Driver:
    d: Driver = request.param
    return d


def test_allowed_call_runs_the_tool_and_returns_its_output(driver: Driver) -> None:
    seen = driver.call([DenyText()], "hi")
    assert seen.ran and "echo:hi" in seen.text


def test_denied_call_never_runs_and_reports_the_reason(driver: Driver) -> None:
    seen = driver.call([DenyText()], "bad")
    assert not seen.ran
    assert "text 'bad' is not allowed" in seen.text


def test_guard_error_denies_when_fail_closed(driver: Driver) -> None:
    seen = driver.call([Raises()], "hi")
    assert not seen.ran
    assert "fail-closed" in seen.text


def test_guard_error_is_skipped_when_fail_open(driver: Driver) -> None:
    seen = driver.call([Raises()], "hi", fail_mode="open")
    assert seen.ran and "echo:hi" in seen.text


def test_guard_error_hides_tools_from_the_model_when_fail_closed(driver: Driver) -> None:
    if not driver.supports_visibility:
        pytest.skip(f"{driver.name} providers are not asked which tools are visible")
    assert driver.visible([RaisesOnModel()], ["echo", "secret"]) == []


def test_visibility_filter_hides_a_tool_and_keeps_the_rest(driver: Driver) -> None:
    if not driver.supports_visibility:
        pytest.skip(f"{driver.name} providers are not asked which tools are visible")
    assert driver.visible([HideSecret()], ["echo", "secret"]) == ["echo"]
    assert sorted(driver.visible([], ["echo", "secret"])) == ["echo", "secret"]


def test_two_guards_run_in_registration_order_and_first_deny_wins(driver: Driver) -> None:
    log: list[str] = []
    driver.call([Named("first", log), Named("second", log)], "hi")
    assert log == ["first", "second"]
    log.clear()
    seen = driver.call([Named("first", log, bad="x"), Named("second", log)], "x")
    assert log == ["first"] and not seen.ran


def test_async_path_allows_and_denies_like_the_sync_path(driver: Driver) -> None:
    allowed = driver.acall([DenyText()], "hi")
    denied = driver.acall([DenyText()], "bad")
    assert allowed.ran and "echo:hi" in allowed.text
    assert not denied.ran and "not allowed" in denied.text


class Recorder:
    """Logs every tool hook; wraps with both sync and async twins."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name = name
        self.log = log

    def before_tool(self, ctx: HookContext, call: ToolCall) -> None:
        self.log.append(f"{self.name}.before")

    def around_tool(self, ctx: HookContext, call: ToolCall, proceed: Any) -> ToolResult:
        self.log.append(f"{self.name}.around>")
        result: ToolResult = proceed(call)
        self.log.append(f"{self.name}.around<")
        return result

    async def aaround_tool(self, ctx: HookContext, call: ToolCall, proceed: Any) -> ToolResult:
        self.log.append(f"{self.name}.around>")
        result: ToolResult = await proceed(call)
        self.log.append(f"{self.name}.around<")
        return result

    def after_tool(self, ctx: HookContext, call: ToolCall, result: ToolResult) -> ToolResult:
        self.log.append(f"{self.name}.after")
        mark = f" [{self.name}]"
        if isinstance(result.content, list):  # content blocks (MCP)
            return replace(result, content=[*result.content, {"type": "text", "text": mark}])
        return replace(result, content=f"{result.content}{mark}")


PINNED = [
    "a.before", "b.before", "a.around>", "b.around>", "b.around<", "a.around<", "b.after",
    "a.after",
]  # fmt: skip


def test_result_hooks_nest_first_outermost_and_after_hooks_run_in_reverse(driver: Driver) -> None:
    if not driver.supports_result_hooks:
        pytest.skip(f"{driver.name} providers decide before the tool runs; results never pass")
    for call in (driver.call, driver.acall):
        log: list[str] = []
        seen = call([Recorder("a", log), Recorder("b", log)], "hi")
        assert log == PINNED
        assert seen.ran and seen.text.endswith("echo:hi [b] [a]")
