"""The chapter notebooks stay thin: a code cell holds parameters and calls into the report package,
never logic (issue 35), so that what a chapter shows is in tested modules, not in a notebook."""
import ast
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
# statements and expressions that are logic, not a call: they belong in a simulator/report module
LOGIC = (ast.If, ast.IfExp, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try,
         ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda,
         ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def logic_in(source: str) -> list:
    """'<kind> at line <n>' for each piece of logic in one code cell (IPython magics such as
    `%matplotlib inline` are not Python and are left out)."""
    python = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
    return [f"{type(node).__name__} at line {node.lineno}" for node in ast.walk(ast.parse(python))
            if isinstance(node, LOGIC)]


def notebook_logic(path) -> list:
    """'<notebook> cell <i>: <kind> at line <n>' for each piece of logic in a notebook's code cells."""
    nb = nbformat.read(str(path), as_version=4)
    return [f"{Path(path).name} cell {i}: {found}" for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for found in logic_in(cell.source)]


def test_the_chapter_notebooks_exist():
    assert len(NOTEBOOKS) >= 10, NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_chapter_notebook_holds_no_logic(path):
    found = notebook_logic(path)
    assert not found, "logic in a notebook; move it to a function in simulator/report/: " + "; ".join(found)


@pytest.mark.parametrize("source, kind", [
    ("if x:\n    ch.markdown(x)", "If"),
    ("for line in lines:\n    ch.markdown(line)", "For"),
    ("while x:\n    x = f(x)", "While"),
    ("with chapter.folded('s'):\n    f(ch)", "With"),
    ("def f():\n    return 1", "FunctionDef"),
    ("rows = [f(r) for r in rs]", "ListComp"),
    ("d = {k: 1 for k in ks}", "DictComp"),
    ("n = sum(x for x in xs)", "GeneratorExp"),
    ("g = lambda x: x", "Lambda"),
    ("y = a if b else c", "IfExp"),
])
def test_each_kind_of_logic_is_found(source, kind):
    assert logic_in(source) == [f"{kind} at line 1"]


def test_parameters_imports_calls_and_magics_are_allowed():
    source = ("%matplotlib inline\nfrom pathlib import Path\nfrom simulator.report import qtcol_chapter\n"
              "figures_dir = \"results/figures/qtcol\"  # a parameter\n"
              "ss = qtcol_chapter.show_single_flow(ch, traces, bdp, reference)")
    assert logic_in(source) == []


def test_a_notebook_with_a_loop_in_a_cell_is_caught(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("if this is prose, it is fine"),
                                         nbformat.v4.new_code_cell("x = 1"),
                                         nbformat.v4.new_code_cell("%matplotlib inline\nfor a in b:\n    f(a)")])
    path = tmp_path / "chapter.ipynb"
    nbformat.write(nb, str(path))
    assert notebook_logic(path) == ["chapter.ipynb cell 2: For at line 2"]
