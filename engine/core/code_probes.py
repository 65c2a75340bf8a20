"""Questions a Python file answers in one place, read with the standard library's parser.

A codebase asked only "In which file is ... defined?" (issue 36: 28 probes of one template, 18 of them answered by
one of two files). Code states more than where names live, in shapes a parser reads exactly:

- what a function or method returns: its return annotation;
- what a module-level constant is set to: a number or a short string;
- which exception a function raises, where it raises only one kind itself;
- which module a file imports a name from;
- a function's first parameter (after self or cls).

Each answer is an exact span of the lines it comes from, so a probe stays checkable without a judge, and each
question names its file, since two files may well define the same name. A name defined twice in one file asks
nothing: the question could not say which is meant. Files that do not parse as Python give nothing; other
languages keep the regular-expression probes of engine.core.probes (which file defines a function or class).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain, zip_longest

CONSTANT_NAME = re.compile(r"[A-Z][A-Z0-9_]*[A-Z0-9]")
MAX_STRING_WORDS = 6  # as engine.core.probes keeps a fact's value short
SELF = ("self", "cls")


@dataclass(frozen=True)
class CodeFact:
    question: str
    answer: str
    lines: tuple[str, ...]  # the source the answer comes from, as written; the answer is in the last


def code_facts(text: str, file: str) -> list[CodeFact]:
    """The file's facts, the templates taken in turn (a return type, a constant, an exception, an import, a
    parameter, then the next of each), so that a short set of probes asks about more than one shape. Within a
    template an answer is asked once: a library's twenty imports from `typing` would otherwise let a reader that
    always says "typing" score."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):  # not Python, or a null byte
        return []
    source = Source(text)
    functions = list(_functions(tree))
    templates = (_returns(source, file, functions), _constants(source, file, tree),
                 _raises(source, file, functions), _imports(source, file, tree),
                 _first_parameters(source, file, functions))
    return [fact for fact in chain.from_iterable(zip_longest(*map(_one_per_answer, templates))) if fact is not None]


def _one_per_answer(facts: Iterable[CodeFact]) -> Iterator[CodeFact]:
    asked = set()
    for fact in facts:
        if fact.answer not in asked:
            asked.add(fact.answer)
            yield fact


class Source:
    """The file's text, cut at a node's lines or columns."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.splitlines()

    def segment(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.text, node) or ""

    def between(self, first: int, last: int) -> str:
        """Lines first to last (1-based, inclusive), as one string."""
        return "\n".join(self.lines[first - 1:last])


@dataclass(frozen=True)
class _Function:
    node: ast.FunctionDef | ast.AsyncFunctionDef
    qualified: str  # "the function load" or "the method Config.load"


def _functions(tree: ast.Module) -> Iterator[_Function]:
    """Public module-level functions and public methods of module-level classes, each defined once in the file."""
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(_Function(node, f"the function {node.name}"))
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            found += [_Function(method, f"the method {node.name}.{method.name}") for method in node.body
                      if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef))]
    defined = Counter(f.qualified for f in found)
    yield from (f for f in found if defined[f.qualified] == 1 and not f.node.name.startswith("_"))


def _returns(source: Source, file: str, functions: Iterable[_Function]) -> Iterator[CodeFact]:
    for f in functions:
        annotation = f.node.returns
        if annotation is not None and (answer := _annotation(source, annotation)) not in ("", "None"):
            yield CodeFact(f"What type does {f.qualified} in {file} return?", answer,
                           (source.between(f.node.lineno, annotation.end_lineno),))


def _annotation(source: Source, annotation: ast.expr) -> str:
    """An annotation as written; a quoted forward reference ('Path') without its quotes."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value
    return source.segment(annotation)


def _constants(source: Source, file: str, tree: ast.Module) -> Iterator[CodeFact]:
    assigned = Counter(name for node in tree.body for name in _assigned_names(node))
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else (
            node.target if isinstance(node, ast.AnnAssign) else None)
        if (isinstance(target, ast.Name) and CONSTANT_NAME.fullmatch(target.id) and assigned[target.id] == 1
                and (answer := _literal(source, node.value)) is not None):
            yield CodeFact(f"What is {target.id} set to in {file}?", answer,
                           (source.between(node.lineno, node.end_lineno),))


def _assigned_names(node: ast.stmt) -> Iterator[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
        node, (ast.AnnAssign, ast.AugAssign)) else []
    for target in targets:
        yield from (n.id for n in ast.walk(target) if isinstance(n, ast.Name))


def _literal(source: Source, value: ast.expr | None) -> str | None:
    """A constant's value as a reader would answer it: a number as written, a short one-line string without its
    quotes; None for anything else (booleans, None, expressions, numbers with underscores that no answer would
    repeat)."""
    number = value.operand if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub) else value
    if not isinstance(number, ast.Constant) or isinstance(number.value, bool):
        return None
    if isinstance(number.value, (int, float)):
        written = source.segment(value)
        return written if "_" not in written else None
    if isinstance(number.value, str):
        text = number.value
        plain = text.strip() and "\n" not in text and len(text.split()) <= MAX_STRING_WORDS
        return text if plain and text in source.segment(value) else None
    return None


def _raises(source: Source, file: str, functions: Iterable[_Function]) -> Iterator[CodeFact]:
    for f in functions:
        raised = list(_own_raises(f.node))
        names = {_exception_name(source, r) for r in raised}
        if len(names) == 1 and (answer := names.pop()):
            first = raised[0]
            yield CodeFact(f"Which exception does {f.qualified} in {file} raise?", answer,
                           (source.lines[f.node.lineno - 1], source.between(first.lineno, first.end_lineno)))


def _own_raises(function: ast.AST) -> Iterator[ast.Raise]:
    """The raise statements of the function itself, not of functions or classes defined inside it."""
    for child in ast.iter_child_nodes(function):
        if isinstance(child, ast.Raise):
            yield child
        elif not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            yield from _own_raises(child)


def _exception_name(source: Source, node: ast.Raise) -> str:
    """"ConfigError" for `raise errors.ConfigError(...)`; "" for a bare `raise` or a raised variable's name."""
    raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
    if isinstance(raised, ast.Attribute):
        return raised.attr
    if isinstance(raised, ast.Name) and raised.id[:1].isupper():
        return raised.id
    return ""


def _imports(source: Source, file: str, tree: ast.Module) -> Iterator[CodeFact]:
    imports = [(node, alias) for node in tree.body if isinstance(node, ast.ImportFrom) and node.module
               for alias in node.names if alias.name != "*"]
    imported = Counter(alias.asname or alias.name for _, alias in imports)
    for node, alias in imports:
        if imported[alias.asname or alias.name] == 1 and not alias.name.startswith("_"):
            module = "." * node.level + node.module
            yield CodeFact(f"From which module does {file} import {alias.name}?", module,
                           (source.between(node.lineno, node.end_lineno),))


def _first_parameters(source: Source, file: str, functions: Iterable[_Function]) -> Iterator[CodeFact]:
    for f in functions:
        arguments = [*f.node.args.posonlyargs, *f.node.args.args]
        if arguments and arguments[0].arg in SELF and f.qualified.startswith("the method"):
            arguments = arguments[1:]
        if arguments and len((first := arguments[0]).arg) > 1:
            yield CodeFact(f"What is the first parameter of {f.qualified} in {file}?", first.arg,
                           (source.between(f.node.lineno, first.end_lineno),))
