"""LaTeX -> SVG with ziamath (pure Python, MIT; STIX Two Math, OFL): the typesetting of a reply's formulas.

Why ziamath and not matplotlib's mathtext: docs/math.md (a tenth of the install, TeX's own layout from the font's
MATH table, environments such as `pmatrix` and `cases` that mathtext does not parse at all).

A formula is typeset once, in black at NOMINAL_PX, and cached by (latex, display): the window scales and colours
the SVG for each font, theme and screen (ui/chat/math_images.py), so a theme switch or a new chunk of a
streaming reply costs no typesetting. What latex2mathml cannot parse, and what it lets through as an unknown
command (`\\foo` comes back as the text "\\foo"), raises MathSyntaxError: the reply then shows the source.

ziamath is imported on the first formula, never at start-up; `prepare()` starts that import (about 0.3 s, the
font's tables included) on a background thread as soon as a reply looks like it holds math, so the first closing
delimiter rarely waits for it. ziamath keeps global state (its config, loaded fonts): every call holds one lock.
"""

from __future__ import annotations

import re
import threading
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

NOMINAL_PX = 20.0  # the size formulas are typeset at; the SVG is scaled from it
_lock = threading.Lock()
_prepared: list[threading.Thread] = []
# \tag{n} makes ziamath number the equation against a 6.5 in column; a model means "(n)" after the formula.
_TAG = re.compile(r"\\tag\*?\{([^{}]*)\}")
_DROPPED = re.compile(r"\\(?:label\{[^{}]*\}|nonumber\b|notag\b)")


class MathSyntaxError(ValueError):
    """The LaTeX does not parse (or uses a command the typesetter does not know)."""


@dataclass(frozen=True, slots=True)
class Typeset:
    """A formula as SVG (black, in px at NOMINAL_PX) with where its baseline is: `ascent` above, `depth` below."""

    svg: str
    width: float
    ascent: float
    depth: float

    @property
    def height(self) -> float:
        return self.ascent + self.depth


def typeset(latex: str, display: bool) -> Typeset:
    """The formula typeset (cached); MathSyntaxError when it does not parse."""
    return _typeset_cached(latex.strip(), display)


def cache_info() -> Any:
    """How many formulas were typeset and how many came from the cache (for tests and benchmarks)."""
    return _typeset_cached.cache_info()


def math_x_height() -> float:
    """The math font's x-height in px at NOMINAL_PX: the window matches it to the text's (MathJax does the same)."""
    return _x_height()


def prepare() -> None:
    """Import ziamath and load its font on a background thread, once (see the module docstring)."""
    with _lock:
        if _prepared:
            return
        thread = threading.Thread(target=_x_height, name="math-typeset-prepare", daemon=True)
        _prepared.append(thread)
    thread.start()


@lru_cache(maxsize=1024)
def _typeset_cached(latex: str, display: bool) -> Typeset:
    if not latex:
        raise MathSyntaxError("empty formula")
    source = _DROPPED.sub("", _TAG.sub(r"\\qquad(\1)", latex))
    with _lock:
        ziamath = _ziamath()
        try:
            math = ziamath.Latex(source, size=NOMINAL_PX, inline=not display)
            unknown = _unknown_command(math.mathml)
            if unknown:
                raise MathSyntaxError(f"unknown command {unknown}")
            root = math.svgxml()
        except MathSyntaxError:
            raise
        except Exception as exc:  # latex2mathml and ziamath raise many kinds (its own, ValueError, KeyError, …)
            raise MathSyntaxError(f"{type(exc).__name__}: {exc}") from exc
    x, y, width, height = (float(v) for v in root.attrib["viewBox"].split())
    del x
    if width <= 0 or height <= 0:
        raise MathSyntaxError("nothing to draw")
    return Typeset(ET.tostring(root, encoding="unicode"), width, -y, height + y)


def _unknown_command(mathml: ET.Element) -> str:
    """latex2mathml keeps a command it does not know as its text (`<mi>\\foo</mi>`): that is no formula."""
    for node in mathml.iter():
        if node.tag != "mtext" and node.text and node.text.startswith("\\") and len(node.text) > 1:
            return node.text
    return ""


@lru_cache(maxsize=1)
def _x_height() -> float:
    return typeset("x", False).ascent - 1.0  # less the 1 px margin ziamath puts around the drawing


def _ziamath() -> Any:
    import warnings

    with warnings.catch_warnings():  # ziamath 0.13 finds its font with importlib.resources.path (deprecated)
        warnings.simplefilter("ignore", DeprecationWarning)
        import ziamath

    # SVG 1.1 (paths drawn in place): Qt's SVG renderer draws SVG 2's <symbol>/<use> glyphs wrong.
    ziamath.config.svg2 = False
    ziamath.config.precision = 2
    return ziamath
