"""The typesetter (ziamath) as the chat uses it: a formula typesets once, broken LaTeX and unknown commands are
an error (the reply then shows the source), and the SVG says where the baseline is."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hermes_desktop.core.math_typeset import NOMINAL_PX, MathSyntaxError, cache_info, math_x_height, typeset


def test_a_formula_typesets_with_its_baseline() -> None:
    shape = typeset(r"\frac{d}{dx} x^2 = 2x", True)
    assert shape.svg.startswith("<svg") and "<path" in shape.svg
    assert "<symbol" not in shape.svg  # SVG 1.1, which Qt's renderer draws right
    assert shape.width > 3 * NOMINAL_PX and shape.ascent > NOMINAL_PX / 2 and shape.depth > 0
    flat = typeset("x", False)
    assert flat.ascent < shape.ascent and 0.3 * NOMINAL_PX < math_x_height() < 0.6 * NOMINAL_PX


def test_the_same_formula_is_typeset_once() -> None:
    typeset(r"e^{i\pi} + 1 = 0", False)
    before = cache_info()
    for _ in range(5):
        typeset(r"e^{i\pi} + 1 = 0", False)
    after = cache_info()
    assert after.misses == before.misses and after.hits == before.hits + 5


@pytest.mark.parametrize("latex", [r"\frac{1}{", "x^", r"\left( x", r"\begin{pmatrix} a", r"\foo{x}", r"\sqrt", ""])
def test_broken_latex_is_an_error(latex: str) -> None:
    with pytest.raises(MathSyntaxError):
        typeset(latex, False)


def test_environments_and_tags_a_model_writes() -> None:
    for latex in (r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}", r"\begin{cases} x & x > 0 \\ -x & x \le 0 \end{cases}",
                  r"\begin{aligned} a &= b \\ c &= d \end{aligned}", r"E = mc^2 \tag{1}", r"\mathbb{R}^n \label{eq}"):
        assert typeset(latex, True).width > 0
    assert typeset(r"E = mc^2 \tag{1}", True).width < 10 * NOMINAL_PX  # not numbered against a 6.5 in column


def test_nothing_is_imported_before_the_first_formula() -> None:
    """Importing the Markdown renderer and finding delimiters loads no typesetter (start-up imports stay lean)."""
    code = ("import sys\n"
            "from hermes_desktop.ui.chat.markdown_render import LIGHT, render_block\n"
            "from hermes_desktop.core.markdown_math import find_math\n"
            "render_block('It costs $5 and $10.', LIGHT)\n"
            "find_math('$x$')\n"
            "assert 'ziamath' not in sys.modules and 'latex2mathml' not in sys.modules, 'imported early'\n"
            "render_block('The area is $x^2$.', LIGHT)\n"
            "assert 'ziamath' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)
