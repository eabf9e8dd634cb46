"""A scan for private names of libraries used outside fivetowers.compat.

What counts as reaching into a library (Textual, Rich, asyncssh):

- importing from one of its private modules (``textual._xterm_parser``);
- reading, writing or overriding a private name (``_x``, not ``__x__``) that
  the library defines: on ``self``/``cls``/``super()`` in a class whose bases
  include a library class that defines the name, on a name bound to a
  library module or class, or on any other object when some library class
  defines or sets that name (``getattr``/``setattr`` with the name as a
  string included, and such a name kept in a string anywhere);
- passing a private keyword argument (``_environ=``);
- making an object whose constructor the library keeps to itself
  (:data:`MADE_BY_THE_LIBRARY`).
"""

from __future__ import annotations

import ast
import importlib
import inspect
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import asyncssh

import fivetowers

LIBRARIES = ("textual", "rich", "asyncssh", "concurrent")
PACKAGE = Path(fivetowers.__file__).parent
COMPAT = PACKAGE / "compat"
MADE_BY_THE_LIBRARY: tuple[type[Any], ...] = (asyncssh.SSHServerProcess,)
"""Library classes whose constructor is no public API."""
NAME_FUNCTIONS = ("getattr", "setattr", "hasattr", "delattr")


@dataclass(frozen=True)
class Reach:
    where: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: {self.what}"


def is_private(name: str) -> bool:
    return (name.startswith("_") and name.strip("_") != ""
            and not (name.startswith("__") and name.endswith("__")))


def from_library(obj: object) -> bool:
    name = obj.__name__ if isinstance(obj, ModuleType) else getattr(obj, "__module__", None)
    return isinstance(name, str) and name.split(".")[0] in LIBRARIES


def _names_defined(tree: ast.AST) -> set[str]:
    """Private names a piece of library source defines or sets."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)  # __slots__ entries, setattr(obj, "__watchers", ...)
    return {name for name in names if is_private(name) and name.isidentifier()}


@cache
def library_private_names() -> frozenset[str]:
    """Every private name the libraries' classes define or set, anywhere."""
    names: set[str] = set()
    for library in LIBRARIES:
        root = Path(importlib.import_module(library).__file__ or "").parent
        for path in root.rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    names |= _names_defined(node)
                elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                      and node.func.id in NAME_FUNCTIONS and len(node.args) > 1
                      and isinstance(node.args[1], ast.Constant)
                      and isinstance(node.args[1].value, str)
                      and is_private(node.args[1].value)):
                    names.add(node.args[1].value)
    return frozenset(names)


@cache
def _defined_by(cls: type[Any]) -> frozenset[str]:
    """Private names a library class defines: its attributes, slots and what
    its own code sets on instances."""
    names = {name for name in vars(cls) if is_private(name)}
    try:
        names |= _names_defined(ast.parse(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        pass
    return frozenset(names)


def _library_names_of(cls: type[Any]) -> frozenset[str]:
    names: set[str] = set()
    for base in cls.__mro__:
        if from_library(base):
            names |= _defined_by(base)
    if names:
        names |= {name for name in library_private_names() if name.startswith("__")}
    return frozenset(names)


def _resolve(expr: ast.expr, namespace: dict[str, Any]) -> object:
    """What a dotted name means at module level (None if it means nothing there)."""
    if isinstance(expr, ast.Name):
        return namespace.get(expr.id)
    if isinstance(expr, ast.Attribute):
        owner = _resolve(expr.value, namespace)
        return None if owner is None else getattr(owner, expr.attr, None)
    return None


class _Scanner(ast.NodeVisitor):
    def __init__(self, where: str, namespace: dict[str, Any]) -> None:
        self.where = where
        self.namespace = namespace
        self.classes: list[type[Any] | None] = []
        self.found: list[Reach] = []
        self.named: set[int] = set()
        """The string constants that getattr and friends take as a name."""

    def _reach(self, node: ast.AST, what: str) -> None:
        self.found.append(Reach(self.where, getattr(node, "lineno", 0), what))

    def _library_names_here(self) -> frozenset[str]:
        cls = self.classes[-1] if self.classes else None
        return _library_names_of(cls) if cls is not None else frozenset()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        outer = self.classes[-1] if self.classes else None
        scope = vars(outer) if outer is not None else self.namespace
        found = scope.get(node.name) if not self.classes or outer is not None else None
        self.classes.append(found if isinstance(found, type) else None)
        for item in node.body:
            if (isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and is_private(item.name) and item.name in self._library_names_here()):
                self._reach(item, f"overrides the library's {item.name}")
        self.generic_visit(node)
        self.classes.pop()

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._check_module(node, alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module:
            self._check_module(node, node.module)
            if node.module.split(".")[0] in LIBRARIES:
                for alias in node.names:
                    if is_private(alias.name):
                        self._reach(node, f"imports {alias.name} from {node.module}")

    def _check_module(self, node: ast.AST, module: str) -> None:
        parts = module.split(".")
        if parts[0] in LIBRARIES and any(is_private(part) for part in parts):
            self._reach(node, f"imports the private module {module}")

    def _check_name(self, node: ast.AST, receiver: ast.expr, name: str) -> None:
        if not is_private(name):
            return
        # self, cls and super() inside a class are that class (outside one,
        # in a function, self is whatever the function was given).
        own = bool(self.classes) and (
            (isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"))
            or (isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name)
                and receiver.func.id == "super"))
        text = f"{ast.unparse(receiver)}.{name}"
        if own:
            if name in self._library_names_here():
                self._reach(node, f"{text}: a private name of a library base class")
            return
        target = _resolve(receiver, self.namespace)
        if target is not None and (isinstance(target, (ModuleType, type))):
            if from_library(target):
                self._reach(node, f"{text}: a private name of a library")
            return
        if name in library_private_names():
            self._reach(node, f"{text}: a private name of a library object")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._check_name(node, node.value, node.attr)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        # A name kept as a string, for getattr: "_divide_cache".
        if (isinstance(node.value, str) and id(node) not in self.named
                and is_private(node.value) and node.value in library_private_names()):
            self._reach(node, f"{node.value!r}: a private name of a library, as a string")

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (isinstance(func, ast.Name) and func.id in NAME_FUNCTIONS and len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)):
            self.named.add(id(node.args[1]))
            self._check_name(node, node.args[0], node.args[1].value)
        for keyword in node.keywords:
            if keyword.arg is not None and is_private(keyword.arg):
                self._reach(node, f"passes the private keyword argument {keyword.arg}")
        made = _resolve(func, self.namespace)
        if isinstance(made, type) and issubclass(made, MADE_BY_THE_LIBRARY):
            self._reach(node, f"constructs {ast.unparse(func)}, which only the library makes")
        self.generic_visit(node)


def scan_source(source: str, where: str, namespace: dict[str, Any]) -> list[Reach]:
    """The reaches into libraries in ``source``, a module whose globals are ``namespace``."""
    scanner = _Scanner(where, namespace)
    scanner.visit(ast.parse(source))
    return scanner.found


def package_modules() -> Iterator[tuple[Path, str]]:
    """Every module of fivetowers outside fivetowers.compat: file and dotted name."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(COMPAT):
            continue
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield path, ".".join(parts)


def scan_package() -> list[Reach]:
    found: list[Reach] = []
    for path, dotted in package_modules():
        module = importlib.import_module(dotted)
        where = str(path.relative_to(PACKAGE.parent))
        found += scan_source(path.read_text(encoding="utf-8"), where, vars(module))
    return found
