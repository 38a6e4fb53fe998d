"""Optional compiled build of the shell classifier with mypyc (hatchling build hook).

Off by default: ``pip install .`` builds the pure-Python package. With ``DEERGUARD_COMPILE=1``
in the environment, a wheel build also compiles the shell classifier's modules with mypyc
(about 1.7x faster per command; figures in README "Status and known limits") and the wheel
becomes platform-specific. It needs a C compiler and the Python headers; mypy (which carries
mypyc) and setuptools are fetched into the isolated build environment by ``dependencies()``.

Behaviour is identical to the pure-Python package: ``tests/test_compiled_build.py`` builds
this wheel and compares every corpus, seed and crasher verdict, finding and AST with the
pure-Python modules. Editable installs are never compiled (the sources stay the code that
runs).

Modules left as Python (see ``_INTERPRETED``): the package entry points, the public AST node
classes (``ast.py`` and ``_ast_words.py``: ordinary dataclasses users may subclass, pickle and
replace), the module that builds
those nodes through their slot descriptors, the pydantic policy models and the CLI.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ENV_FLAG = "DEERGUARD_COMPILE"
# mypyc ships inside mypy: the version that type-checks the package in CI compiles it.
# mypy follows the shell package's imports into the rest of deerguard, so the build
# environment needs every runtime dependency those modules import (pycasbin for authz):
# without it a fresh machine's ``DEERGUARD_COMPILE=1 pip install .`` stops in mypy.
BUILD_REQUIRES = ["mypy==2.4.1", "setuptools>=70", "types-regex", "types-PyYAML",
                  "pydantic>=2.6,<3", "regex>=2024.4.16", "pycasbin>=2.8,<3"]
_PACKAGE = "deerguard/shell"
# The AST node classes live in ast.py and _ast_words.py (the word nodes): both stay Python.
_INTERPRETED = frozenset({"__init__.py", "__main__.py", "ast.py", "_ast_words.py",
                          "_parse_nodes.py", "_policy.py", "_cli.py", "_hookcli.py"})


def _enabled() -> bool:
    value = os.environ.get(ENV_FLAG, "")
    if value not in ("", "0", "1"):
        raise ValueError(f"{ENV_FLAG}={value!r}: set it to 1 to compile the shell classifier "
                         "with mypyc, or 0 (or leave it unset) for the pure-Python package")
    return value == "1"


def compiled_sources(root: str) -> list[str]:
    """The modules mypyc compiles, relative to ``root``, sorted."""
    folder = Path(root, _PACKAGE)
    return sorted(f"{_PACKAGE}/{p.name}" for p in folder.glob("*.py")
                  if p.name not in _INTERPRETED)


class CompileHook(BuildHookInterface):
    PLUGIN_NAME = "custom"
    _out = ""

    def dependencies(self) -> list[str]:
        return list(BUILD_REQUIRES) if _enabled() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or not _enabled():
            return
        from mypyc.build import mypycify
        from setuptools import Distribution

        out = self._out = tempfile.mkdtemp(prefix="deerguard-mypyc-")
        generated = os.path.join(out, "c")
        lib = os.path.join(out, "lib")
        temp = os.path.join(out, "temp")
        sources = compiled_sources(self.root)
        cwd = os.getcwd()
        os.chdir(self.root)  # mypy reads [tool.mypy] from pyproject.toml here
        try:
            extensions = mypycify(
                [f"--cache-dir={os.path.join(out, 'mypy-cache')}", *sources],
                opt_level="3", target_dir=generated,
                # One C file per module, compiled in parallel: 2 min 50 s on 2 cores, where
                # one file for all took 7 min 35 s (gcc is superlinear in a file's size).
                multi_file=True,
            )
            # A bare Distribution: setuptools' setup() would also read pyproject.toml.
            dist = Distribution({"name": "deerguard-compiled", "ext_modules": extensions})
            dist.script_name = "hatch_build.py"
            dist.script_args = ["build_ext", "--build-lib", lib, "--build-temp", temp,
                                "--parallel", str(os.cpu_count() or 1)]
            dist.parse_command_line()
            dist.run_commands()
        finally:
            os.chdir(cwd)
        built = [p for p in Path(lib).rglob("*") if p.is_file()]
        if not any(p.name.startswith("_walk.") for p in built):
            raise RuntimeError(f"{ENV_FLAG}=1: mypyc built no shell modules in {lib}")
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(lib).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._out:
            shutil.rmtree(self._out, ignore_errors=True)
