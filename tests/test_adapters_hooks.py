"""The neutral hook contract: pinned order, fail modes, passthrough, deny is final."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deerguard.adapters.hooks import (
    Decision,
    GuardChain,
    HookContext,
    Message,
    ModelCall,
    ModelResult,
    ToolCall,
    ToolResult,
    ToolSpec,
)
from deerguard.errors import ConfigError


class Recorder:
    """A guard implementing all six hooks (sync and async) that logs each call."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name = name
        self.log = log

    def before_model(self, ctx: HookContext, call: ModelCall) -> None:
        self.log.append(f"{self.name}.before_model")

    def wrap_model(self, ctx: HookContext, call: ModelCall, proceed: Any) -> ModelResult:
        self.log.append(f"{self.name}.wrap_model>")
        result: ModelResult = proceed(call)
        self.log.append(f"{self.name}.wrap_model<")
        return result

    async def awrap_model(self, ctx: HookContext, call: ModelCall, proceed: Any) -> ModelResult:
        self.log.append(f"{self.name}.wrap_model>")
        result: ModelResult = await proceed(call)
        self.log.append(f"{self.name}.wrap_model<")
        return result

    def after_model(self, ctx: HookContext, call: ModelCall, result: ModelResult) -> None:
        self.log.append(f"{self.name}.after_model")

    def before_tool(self, ctx: HookContext, call: ToolCall) -> None:
        self.log.append(f"{self.name}.before_tool")

    def around_tool(self, ctx: HookContext, call: ToolCall, proceed: Any) -> ToolResult:
        self.log.append(f"{self.name}.around_tool>")
        result: ToolResult = proceed(call)
        self.log.append(f"{self.name}.around_tool<")
        return result

    async def aaround_tool(self, ctx: HookContext, call: ToolCall, proceed: Any) -> ToolResult:
        self.log.append(f"{self.name}.around_tool>")
        result: ToolResult = await proceed(call)
        self.log.append(f"{self.name}.around_tool<")
        return result

    def after_tool(self, ctx: HookContext, call: ToolCall, result: ToolResult) -> None:
        self.log.append(f"{self.name}.after_tool")


CALL = ToolCall("echo", {"text": "hi"}, call_id="c1")
MODEL_CALL = ModelCall((Message("user", "hi"),), (ToolSpec("echo"), ToolSpec("bash")), "m")


def _echo(log: list[str]) -> Any:
    def execute(call: ToolCall) -> ToolResult:
        log.append("tool")
        return ToolResult(f"echo:{call.args['text']}")

    return execute


def test_tool_hooks_run_before_in_order_around_nested_after_reversed() -> None:
    log: list[str] = []
    chain = GuardChain([Recorder("a", log), Recorder("b", log)])
    chain.run_tool(HookContext(), CALL, _echo(log))
    assert log == [
        "a.before_tool",
        "b.before_tool",
        "a.around_tool>",
        "b.around_tool>",
        "tool",
        "b.around_tool<",
        "a.around_tool<",
        "b.after_tool",
        "a.after_tool",
    ]


def test_model_hooks_keep_the_same_order_sync_and_async() -> None:
    sync_log: list[str] = []
    async_log: list[str] = []
    sync_chain = GuardChain([Recorder("a", sync_log), Recorder("b", sync_log)])
    async_chain = GuardChain([Recorder("a", async_log), Recorder("b", async_log)])

    def invoke(call: ModelCall) -> ModelResult:
        sync_log.append("model")
        return ModelResult("ok")

    async def ainvoke(call: ModelCall) -> ModelResult:
        async_log.append("model")
        return ModelResult("ok")

    sync_chain.run_model(HookContext(), MODEL_CALL, invoke)
    asyncio.run(async_chain.arun_model(HookContext(), MODEL_CALL, ainvoke))
    assert sync_log == async_log
    assert sync_log.index("a.before_model") < sync_log.index("b.before_model")
    assert sync_log.index("b.after_model") < sync_log.index("a.after_model")


class Deny:
    name = "deny"

    def __init__(self, hook: str = "before_tool") -> None:
        self.hook = hook

    def before_tool(self, ctx: HookContext, call: ToolCall) -> Decision | None:
        return Decision.deny("test.denied", "no") if self.hook == "before_tool" else None

    def after_tool(self, ctx: HookContext, call: ToolCall, result: ToolResult) -> Any:
        return Decision.deny("test.denied", "no") if self.hook == "after_tool" else None


def test_first_before_deny_short_circuits_later_guards_and_the_tool() -> None:
    log: list[str] = []
    out = GuardChain([Deny(), Recorder("b", log)]).run_tool(HookContext(), CALL, _echo(log))
    assert out.denied and out.result is None
    assert out.decision.reasons[0].code == "test.denied"
    assert out.decision.guard == "deny"
    assert log == []


def test_after_deny_replaces_a_result_that_already_ran() -> None:
    log: list[str] = []
    out = GuardChain([Deny("after_tool")]).run_tool(HookContext(), CALL, _echo(log))
    assert log == ["tool"] and out.denied


class Swallow:
    """A wrapping guard that tries to turn an inner deny into a result."""

    def around_tool(self, ctx: HookContext, call: ToolCall, proceed: Any) -> ToolResult:
        try:
            result: ToolResult = proceed(call)
            return result
        except Exception:
            return ToolResult("swallowed")


class InnerDeny:
    def around_tool(self, ctx: HookContext, call: ToolCall, proceed: Any) -> Decision:
        return Decision.deny("inner.deny", "inner says no")


def test_an_outer_guard_cannot_override_an_inner_deny() -> None:
    out = GuardChain([Swallow(), InnerDeny()]).run_tool(HookContext(), CALL, _echo([]))
    assert out.denied and out.decision.reasons[0].code == "inner.deny"


class Boom:
    name = "boom"

    def before_tool(self, ctx: HookContext, call: ToolCall) -> None:
        raise RuntimeError("guard bug")


class Malformed:
    def before_tool(self, ctx: HookContext, call: ToolCall) -> object:
        return "yes please"


@pytest.mark.parametrize("guard", [Boom(), Malformed()], ids=["raises", "malformed"])
def test_guard_failure_denies_when_closed(guard: object) -> None:
    log: list[str] = []
    out = GuardChain([guard]).run_tool(HookContext(), CALL, _echo(log))
    assert out.denied and out.decision.source == "error" and log == []
    assert out.decision.reasons[0].code == "deerguard.guard-error"


@pytest.mark.parametrize("guard", [Boom(), Malformed()], ids=["raises", "malformed"])
def test_guard_failure_is_skipped_and_logged_when_open(
    guard: object, caplog: pytest.LogCaptureFixture
) -> None:
    log: list[str] = []
    with caplog.at_level(logging.WARNING, logger="deerguard.adapters"):
        out = GuardChain([guard], fail_mode="open").run_tool(HookContext(), CALL, _echo(log))
    assert not out.denied and out.result == ToolResult("echo:hi") and log == ["tool"]
    assert "fail-open" in caplog.text


def test_fail_open_never_turns_a_deny_into_an_allow() -> None:
    out = GuardChain([Deny()], fail_mode="open").run_tool(HookContext(), CALL, _echo([]))
    assert out.denied


class WrapBoom:
    def around_tool(self, ctx: HookContext, call: ToolCall, proceed: Any) -> ToolResult:
        proceed(call)
        raise RuntimeError("after running")


def test_fail_open_wrap_error_after_proceed_keeps_the_result_without_rerunning() -> None:
    log: list[str] = []
    out = GuardChain([WrapBoom()], fail_mode="open").run_tool(HookContext(), CALL, _echo(log))
    assert out.result == ToolResult("echo:hi") and log == ["tool"]


def test_tool_errors_propagate_unchanged_through_wrapping_guards() -> None:
    def broken(call: ToolCall) -> ToolResult:
        raise KeyError("tool bug")

    with pytest.raises(KeyError, match="tool bug"):
        GuardChain([Recorder("a", [])]).run_tool(HookContext(), CALL, broken)


class Interrupt(Exception):
    pass


class Interrupting:
    def before_tool(self, ctx: HookContext, call: ToolCall) -> None:
        raise Interrupt("pause for a human")


def test_registered_control_flow_exceptions_pass_through_even_when_closed() -> None:
    with pytest.raises(Interrupt):
        GuardChain([Interrupting()], passthrough=(Interrupt,)).run_tool(
            HookContext(), CALL, _echo([])
        )
    by_name = GuardChain([Interrupting()], passthrough_if=lambda e: "Interrupt" in repr(e))
    with pytest.raises(Interrupt):
        by_name.run_tool(HookContext(), CALL, _echo([]))
    assert GuardChain([Interrupting()]).run_tool(HookContext(), CALL, _echo([])).denied


class Rewrite:
    def before_tool(self, ctx: HookContext, call: ToolCall) -> ToolCall:
        return replace(call, args={"text": call.args["text"].upper()})

    def after_tool(self, ctx: HookContext, call: ToolCall, result: ToolResult) -> ToolResult:
        ctx.state["seen"] = call.args["text"]
        return replace(result, content=result.content + "!")


def test_rewrites_flow_to_the_tool_and_results_flow_back_with_shared_state() -> None:
    ctx = HookContext(step=3)
    out = GuardChain([Rewrite()]).run_tool(ctx, CALL, _echo([]))
    assert out.result is not None and out.result.content == "echo:HI!"
    assert ctx.state == {"seen": "HI"}


class HideBash:
    def before_model(self, ctx: HookContext, call: ModelCall) -> ModelCall:
        return replace(call, tools=tuple(t for t in call.tools if t.name != "bash"))


class AddTool:
    def before_model(self, ctx: HookContext, call: ModelCall) -> ModelCall:
        return replace(call, tools=(*call.tools, ToolSpec("rm_everything")))


def test_filter_tools_hides_and_never_adds() -> None:
    tools = [ToolSpec("echo"), ToolSpec("bash")]
    chain = GuardChain([AddTool(), HideBash()])
    assert [t.name for t in chain.filter_tools(HookContext(), tools)] == ["echo"]
    assert asyncio.run(GuardChain([Boom()]).afilter_tools(HookContext(), tools)) == tuple(tools)
    assert GuardChain([DenyModel()]).filter_tools(HookContext(), tools) == ()


class DenyModel:
    def before_model(self, ctx: HookContext, call: ModelCall) -> Decision:
        return Decision.deny("model.denied", "no model for you")


def test_sync_only_wrapping_guard_is_a_config_error_on_the_async_path() -> None:
    class SyncWrap:
        def around_tool(self, ctx: HookContext, call: ToolCall, proceed: Any) -> Any:
            return proceed(call)

    async def aexecute(call: ToolCall) -> ToolResult:
        return ToolResult("x")

    with pytest.raises(ConfigError, match="aaround_tool"):
        asyncio.run(GuardChain([SyncWrap()]).arun_tool(HookContext(), CALL, aexecute))


def test_bad_fail_mode_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="fail_mode"):
        GuardChain([], fail_mode="maybe")  # type: ignore[arg-type]


BEHAVIOURS = st.sampled_from(["allow", "deny", "raise", "malformed", "rewrite"])


class Scripted:
    """A guard whose before_tool and after_tool behaviours are drawn by hypothesis."""

    def __init__(self, index: int, before: str, after: str, log: list[str]) -> None:
        self.name = f"g{index}"
        self.before, self.after, self.log = before, after, log

    def _act(self, behaviour: str, current: Any, hook: str) -> Any:
        self.log.append(f"{self.name}.{hook}")
        if behaviour == "deny":
            return Decision.deny(f"{self.name}.deny", "no")
        if behaviour == "raise":
            raise RuntimeError(self.name)
        if behaviour == "malformed":
            return 42
        if behaviour == "rewrite":
            if isinstance(current, ToolCall):
                return replace(current, args={"trail": [*current.args["trail"], self.name]})
            return replace(current, content=f"{current.content}+{self.name}")
        return None

    def before_tool(self, ctx: HookContext, call: ToolCall) -> Any:
        return self._act(self.before, call, "before")

    def after_tool(self, ctx: HookContext, call: ToolCall, result: ToolResult) -> Any:
        return self._act(self.after, result, "after")


def _reference(
    plans: list[tuple[str, str]], fail_mode: str
) -> tuple[bool, list[str], str | None, list[str]]:
    """What the chain must do, computed independently: (denied, trail, content, hook log)."""
    log: list[str] = []
    trail: list[str] = []
    for index, (before, _) in enumerate(plans):
        log.append(f"g{index}.before")
        if before == "deny" or (before in ("raise", "malformed") and fail_mode == "closed"):
            return True, trail, None, log
        if before == "rewrite":
            trail.append(f"g{index}")
    content = "ran"
    for index in reversed(range(len(plans))):
        after = plans[index][1]
        log.append(f"g{index}.after")
        if after == "deny" or (after in ("raise", "malformed") and fail_mode == "closed"):
            return True, trail, None, log
        if after == "rewrite":
            content += f"+g{index}"
    return False, trail, content, log


@settings(max_examples=200)
@given(
    st.lists(st.tuples(BEHAVIOURS, BEHAVIOURS), max_size=5),
    st.sampled_from(["closed", "open"]),
)
def test_chain_matches_the_reference_order_and_fail_mode(
    plans: list[tuple[str, str]], fail_mode: Any
) -> None:
    log: list[str] = []
    guards = [Scripted(i, b, a, log) for i, (b, a) in enumerate(plans)]
    ran: list[list[str]] = []

    def execute(call: ToolCall) -> ToolResult:
        ran.append(list(call.args["trail"]))
        return ToolResult("ran")

    out = GuardChain(guards, fail_mode=fail_mode).run_tool(
        HookContext(), ToolCall("t", {"trail": []}), execute
    )
    denied, trail, content, expected_log = _reference(plans, fail_mode)
    assert out.denied is denied
    assert log == expected_log
    if not denied:
        assert ran == [trail] and out.result is not None and out.result.content == content
    elif any(entry.endswith(".after") for entry in log):
        assert ran == [trail]  # the tool ran; a later after-hook denied its result
    else:
        assert ran == []

    # The async path makes exactly the same decisions in the same order.
    alog_start = len(log)

    async def aexecute(call: ToolCall) -> ToolResult:
        return execute(call)

    aout = asyncio.run(
        GuardChain(guards, fail_mode=fail_mode).arun_tool(
            HookContext(), ToolCall("t", {"trail": []}), aexecute
        )
    )
    assert log[alog_start:] == expected_log
    assert aout.denied is out.denied and aout.result == out.result


def test_an_object_without_hooks_is_rejected_instead_of_guarding_nothing() -> None:
    with pytest.raises(ConfigError, match="not a guard"):
        GuardChain([object()])
    with pytest.raises(ConfigError, match="chain.guards"):
        GuardChain([GuardChain([])])
