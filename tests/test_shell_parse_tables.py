"""Table tests for the shell parser: input -> expected tree, one table per construct family.

Trees are compared through ``dump`` (tests/test_shell_parse_support.py), a compact S-expression:
``(cmd words...)`` simple command, ``[a | b]`` pipeline, ``{a && b}`` and-or, ``$(...)``
substitution, ``$[[...]]`` arithmetic, ``+`` joins the parts of one word, ``<<...>>`` a heredoc
body. Each row also pins the parse issues as ``(offset, incomplete)`` pairs.
"""

from __future__ import annotations

import pytest
from test_shell_parse_support import check_coverage, check_spans, dump

from deerguard.shell._parse import parse

Row = tuple[str, str, list[tuple[int, bool]]]

ASSIGNMENTS: list[Row] = [
    ("X=1 cmd", "(X=1 cmd)", []),
    ("cmd X=1", "(cmd X=1)", []),
    ("a[i]=v", "(a[i]=v)", []),
    ("a[$i+1]=v cmd", "(a[$i++1]=v cmd)", []),
    ("a=(x y)", "(a=(x y))", []),
    ("X+=v", "(X+=v)", []),
    ("a+=(z)", "(a+=(z))", []),
    ("X= cmd", "(X= cmd)", []),
    ("X=1", "(X=1)", []),
    ("a=(\n x # c\n y\n)", "(a=(x y))", []),
    ("declare -a a=(1 $(id))", "(declare -a a=(1 +$((id))+))", []),
    ("export A=1 B", "(export A=1 B)", []),
    ("1X=2", "(1X=2)", []),
    ("X=$(id)", "(X=$((id)))", []),
]

ARITHMETIC: list[Row] = [
    ("((x = 1 << 2))", "((x = 1 << 2))", []),
    ("( (a) )", "(sub (sub (a)))", []),
    ("((a) )", "(sub (sub (a)))", []),
    ("echo $((1<<2)) $( (x) )", "(echo $[[1<<2]] $((sub (x))))", []),
    ("echo $(( (1+2) * 3 ))", "(echo $[[ (1+2) * 3 ]])", []),
    ("echo $((x<<EOF))", "(echo $[[x<<EOF]])", []),
    ("((echo a); (echo b))", "(sub (sub (echo a)); (sub (echo b)))", []),
    ("echo $((echo a); (echo b))", "(echo $((sub (echo a)); (sub (echo b))))", []),
    ("echo $[1+2]", "(echo $[[1+2]])", []),
    ("for ((i=0; i<3; i++)); do :; done", "(for ((i=0; i<3; i++)) do [(:);])", []),
    ("for ((;;)); do :; done", "(for ((-;-;-)) do [(:);])", []),
    ("(( $(id) ))", "(( $(id) ))", []),
    ("echo $(( a[$(id)] ))", "(echo $[[ a[$((id))] ]])", []),
]

HEREDOCS: list[Row] = [
    ("cat <<EOF | wc -l\nbody $x\nEOF", "[(cat <<EOF<<body $x\n>>) | (wc -l)]\\n", []),
    ("cat <<'EOF'\n$x `y`\nEOF", "(cat <<'EOF'<<'$x `y`\\n'>>)\\n", []),
    ('cat <<E"O"F\n$x\nEOF', "(cat <<E+\"O\"+F<<'$x\\n'>>)\\n", []),
    ("cat <<\\EOF\n$x\nEOF", "(cat <<\\E+OF<<'$x\\n'>>)\\n", []),
    ("cat <<-EOF\n\t$x\n\tEOF", "(cat <<-EOF<<\t$x\n>>)\\n", []),
    ("cat <<A <<B\n1\nA\n2\nB", "(cat <<A<<1\n>> <<B<<2\n>>)\\n", []),
    ("echo $(cat <<EOF) tail\nin $x\nEOF", "(echo $((cat <<EOF<<in $x\n>>)) tail)\\n", []),
    ("x=$(cat <<EOF\n$(id)\nEOF\n)", "(x=$((cat <<EOF<<$((id))\n>>)\\n))", []),
    ("cat <<EOF\nno end", "(cat <<EOF<<no end>>)\\n", [(10, True)]),
    (
        "cat <<EOF; echo next\nbody\nEOF\necho after",
        "(cat <<EOF<<body\n>>); (echo next)\\n (echo after)",
        [],
    ),
    ("cat <<EOF\n\\$x \\\\ \\a\nEOF", "(cat <<EOF<<\\$x \\\\ \\a\n>>)\\n", []),
    (
        "cat <<EOF\n$(cat <<E2\ninner\nE2\n)\nEOF",
        "(cat <<EOF<<$((cat <<E2<<inner\n>>)\\n)\n>>)\\n",
        [],
    ),
]

WORDS: list[Row] = [
    ("echo a\\\nb", "(echo a+b)", []),
    ("echo a \\\n b", "(echo a b)", []),
    ("echo a#b #c", "(echo a#b)", []),
    ("echo \"#x\" '#y' \\#z", "(echo \"#x\" '#y' \\#+z)", []),
    (
        "echo $'\\x72m' $'\\u00e9' $'\\101' $'\\cA' $'\\n' $'a\\0b'",
        "(echo $''rm'' $''é'' $''A'' $''\\x01'' $''\\n'' $''a'')",
        [],
    ),
    (
        "echo {a,b} {1..3} '{a,b}' \"{a,b}\" {a} {} a{b,c}d {a,{b,c}} {1..10..2} {a..e}",
        "(echo {a,b} {1..3} '{a,b}' \"{a,b}\" {a} {} a+{b,c}+d {a,{b,c}} {1..10..2} {a..e})",
        [],
    ),
    ('echo ~ ~/x ~root a~ "~" X=~ x=a:~/b', '(echo ~ ~+/x ~root a~ "~" X=+~ x=a:+~+/b)', []),
    ("PATH=~/bin:~/lib", "(PATH=~+/bin:+~+/lib)", []),
    ("echo <(a) >(b) x<(y)", "(echo <((a)) >((b)) x+<((y)))", []),
    ("echo @(a|b) !(x) *.py ?x [ab]", "(echo @(a|b) !(x) *.py ?x [ab])", []),
    ("echo r''m \"r\"m \\rm", "(echo r+''+m \"r\"+m \\r+m)", []),
    ('echo "a $(b "c $(d)") `e`"', '(echo "a $((b "c $((d))")) `(e)`")', []),
    ('echo "\\$x \\" \\\\ \\a"', '(echo "\\$x \\" \\\\ \\a")', []),
    ("echo '\\'", "(echo '\\')", []),
    ('echo $"loc $x"', '(echo $"loc $x")', []),
    ('echo $ "$" a$', '(echo $ "$" a$)', []),
]

PARAMETERS: list[Row] = [
    (
        'echo ${x:-"a b"} ${#x} ${!x} ${a[i]} ${x@P} ${x/a/b} ${x:1:2} ${!p*}',
        '(echo ${x :- "a b"} ${#x} ${!x} ${a[i]} ${x @ P} ${x / a,b} ${x : 1,2} ${!p})',
        [],
    ),
    ("echo ${x:-$(id)} ${x:=`id`}", "(echo ${x :- $((id))} ${x := `(id)`})", []),
    (
        "echo ${x#*/} ${x%%.*} ${x//a/b} ${x^^} ${x,}",
        "(echo ${x # */} ${x %% .*} ${x // a,b} ${x ^^ ''} ${x , ''})",
        [],
    ),
    ("echo ${ echo hi; }", "(echo $((echo hi);))", []),
    ("echo ${#} ${!} ${@} ${10}", "(echo ${#} ${!} ${@} ${10})", []),
    ("echo \"${x:-'q'}\"", "(echo \"${x :- 'q'}\")", []),
    ("echo $1 $@ $? $$ $# $-", "(echo $1 $@ $? $$ $# $-)", []),
    ("echo ${x:-{a}}", "(echo ${x :- {a}})", []),
    ("echo ${}", "(echo ${})", [(5, False)]),
]

PIPELINES_AND_LISTS: list[Row] = [
    ("a |& b", "[(a) |& (b)]", []),
    ("a | b | c", "[(a) | (b) | (c)]", []),
    ("time -p ! cmd", "[time ! (cmd)]", []),
    ("! cmd", "[! (cmd)]", []),
    ("time cmd | cmd2", "[time (cmd) | (cmd2)]", []),
    ("a && b || c", "{(a) && (b) || (c)}", []),
    ("a; b & c", "(a); (b)& (c)", []),
    ("a &&\n b", "{(a) && (b)}", []),
    ("a |\n b", "[(a) | (b)]", []),
    ("a & b && c &", "(a)& {(b) && (c)}&", []),
    ("time", "[time ()]", []),
    ("! ! a", "(a)", []),
]

REDIRECTIONS: list[Row] = [
    (
        "cmd &> f &>> g >| h <> i 2>&1 {fd}>j 3<&- <<< s",
        "(cmd &>f &>>g >|h <>i 2>&1 {fd}>j 3<&- <<<s)",
        [],
    ),
    ("cmd 2> err > out < in", "(cmd 2>err >out <in)", []),
    ("cmd >&2", "(cmd >&2)", []),
    ("> f", "(>f)", []),
    ("cmd > $out 2>/dev/null", "(cmd >$out 2>/dev/null)", []),
    ('cmd <<< "$x"', '(cmd <<<"$x")', []),
    ("echo 2>x", "(echo 2>x)", []),
    ("echo a2>x", "(echo a2 >x)", []),
    ("cmd >", "(cmd >-)", [(5, True)]),
]

COMPOUND: list[Row] = [
    (
        "case $x in (a) b;; c|d) e;& *) f;;& esac",
        "(case $x a) [(b)];; c|d) [(e)];& *) [(f)];;&)",
        [],
    ),
    ("case $x in\n a) b ;;\n *) c\nesac", "(case $x a) [(b)];; *) [(c)\\n])", []),
    ("case x in esac", "(case x )", []),
    ("[[ $a < $b && ! -f x || ( y ) ]]", "[[ $a < $b && ! -f x || ( y ) ]]", []),
    ("[[ $x =~ ^(a|b)+$ ]]", "[[ $x =~ ^(a|b)+$ ]]", []),
    ("[[ a == b ]] && c", "{[[ a == b ]] && (c)}", []),
    ("for x; do :; done", "(for x do [(:);])", []),
    ("for x in a b; do :; done", "(for x in a b do [(:);])", []),
    ("for x in a\ndo :\ndone", "(for x in a do [(:)\\n])", []),
    ("select x in a b; do :; done", "(select x in a b do [(:);])", []),
    ("while a; do b; done", "(while [(a);] do [(b);])", []),
    ("until a; do b; done", "(until [(a);] do [(b);])", []),
    (
        "if a; then b; elif c; then d; else e; fi",
        "(if [(a);] then [(b);] [(c);] then [(d);] else [(e);])",
        [],
    ),
    ("if a\nthen b\nfi", "(if [(a)\\n] then [(b)\\n])", []),
    ("function f { :; }", "(def function f (group (:);))", []),
    ("function f() { :; }", "(def function f (group (:);))", []),
    ("f() ( : )", "(def f (sub (:)))", []),
    ("f () { :; } > out", "(def f (group (:);) >out)", []),
    ("coproc NAME { cat; }", "(coproc NAME (group (cat);))", []),
    ("coproc cat", "(coproc - (cat))", []),
    ("coproc N (x)", "(coproc N (sub (x)))", []),
    ("{ a; b; } > f", "(group (a); (b);) >f", []),
    ("( a ) 2>&1 | b", "[(sub (a)) 2>&1 | (b)]", []),
    ("if a; then b; fi > out", "(if [(a);] then [(b);]) >out", []),
    ("while read l; do :; done < f", "(while [(read l);] do [(:);]) <f", []),
    ("for x in 1; { echo; }", "(for x in 1 do [(echo);])", []),
    ("{ a; }; { b; }", "(group (a);); (group (b);)", []),
    ("echo }", "(echo })", []),
    ("f() { g() { :; }; }", "(def f (group (def g (group (:);));))", []),
]

RESERVED_WORDS: list[Row] = [
    ("echo if then fi", "(echo if then fi)", []),
    ("echo {", "(echo {)", []),
    ("x=if", "(x=if)", []),
    ("if", "(if [] then [])", [(2, True), (2, True)]),
    ("then", "(then)", [(0, False)]),
    ("done", "(done)", [(0, False)]),
    ("}", "(})", [(0, False)]),
    ("{ echo }", "(group (echo }))", [(8, True)]),
    ("echo time", "(echo time)", []),
    ("time echo", "[time (echo)]", []),
    ("a | time b", "[(a) | (time b)]", []),
    ("a | ! b", "[(a) | (! b)]", [(4, False)]),
]

ERRORS: list[Row] = [
    ('echo "unclosed', '(echo "unclosed")', [(5, True)]),
    ("echo 'unclosed", "(echo 'unclosed')", [(5, True)]),
    ("echo $(unclosed", "(echo $((unclosed)))", [(5, True)]),
    ("echo `unclosed", "(echo `(unclosed)`)", [(5, True)]),
    ("echo ${unclosed", "(echo ${unclosed})", [(5, True)]),
    ("if a; then b", "(if [(a);] then [(b)])", [(12, True)]),
    ("for x in a; do", "(for x in a do [])", [(14, True)]),
    ("case a in", "(case a )", [(9, True)]),
    ("(a", "(sub (a))", [(2, True)]),
    ("{ a;", "(group (a);)", [(4, True)]),
    (")", "()", [(0, False)]),
    (";;", "()", [(0, False)]),
    ("a ; ; b", "(a); () (b)", [(4, False)]),
    ("echo $((1+", "(echo $[[1+]])", [(10, True)]),
    ("[[ a", "[[ a ]]", [(0, True)]),
    ("a &&", "{(a) && ()}", [(2, True)]),
    ("a |", "[(a) | ()]", [(2, True)]),
    ("f() ", "(def f ())", [(4, True)]),
    ("echo <(a", "(echo <((a)))", [(5, True)]),
    ("cat <<", "(cat <<-)", [(6, True)]),
]

TABLES = {
    "assignments": ASSIGNMENTS,
    "arithmetic": ARITHMETIC,
    "heredocs": HEREDOCS,
    "words": WORDS,
    "parameters": PARAMETERS,
    "pipelines and lists": PIPELINES_AND_LISTS,
    "redirections": REDIRECTIONS,
    "compound": COMPOUND,
    "reserved words": RESERVED_WORDS,
    "errors": ERRORS,
}


@pytest.mark.parametrize(
    ("source", "expected", "issues"),
    [
        pytest.param(*row, id=f"{family}: {row[0][:40]!r}")
        for family, t in TABLES.items()
        for row in t
    ],
)
def test_parse_builds_expected_tree_and_issues(
    source: str, expected: str, issues: list[tuple[int, bool]]
) -> None:
    script = parse(source)
    assert dump(script) == expected
    assert [(i.offset, i.incomplete) for i in script.issues] == issues
    check_spans(script, source)
    check_coverage(script, source)
