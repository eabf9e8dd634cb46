"""Compiles the translations (``.po`` → ``.mo``) into every build: no manual step.

Metadata lives in pyproject.toml; this file only adds the build step. The
compiler is the package's own, standard library only
(``fivetowers/i18n/po.py``), loaded by path so the build needs nothing
installed. An editable install or a source checkout compiles the ``.po`` in
memory at first use instead (``fivetowers.i18n``), so it always shows the
catalog as it is in the tree.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _compiler():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("_fivetowers_po", ROOT / "fivetowers/i18n/po.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


class BuildWithCatalogs(build_py):
    """``build_py``, then each catalog compiled beside its ``.po`` in the build."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # the tree itself is used: compiled at first use
            return
        locale = Path(self.build_lib) / "fivetowers" / "locale"
        if locale.is_dir():
            _compiler().compile_tree(locale)


setup(cmdclass={"build_py": BuildWithCatalogs})
