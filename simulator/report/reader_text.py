"""What a reader must not meet in the book's text (its prose, tables, captions and notes, folded or not;
not code cells): numbers printed finer than anything is measured, intervals of width 0, p-values
printed as 0, 1 or with an exponent, and the project's internal words. The browser check
(simulator/report/browser_check.py) runs these over every page of the built book.

  float_noise     a number with an exponent ('5.225e-14') or more than MAX_DIGITS significant digits
                  ('0.30000000000000004', '96.38000001'): no metric is measured that finely
                  (reference/metric_thresholds.yaml), so the digits are float noise
  zero_width_ci   an interval '[x, x]': every seed gave the same value; the book writes "deterministic"
  p_value         'p = 0', 'p = 1' or a p with an exponent ('p = 1e-130'); the book writes 'p < 10⁻⁶',
                  'p > 0.99' (number_format.p_value)
  code_word       a word of CODE_WORDS anywhere, or a snake_case identifier not in ALLOWED (a metric column, a setting
                  `delay_ms=10`) in prose, outside code type; file names and paths
                  (studies/ns2_delay.yaml, results/tables/x.csv) are allowed: captions name the study
                  file they were made from (the style rules ask so); a name in code type (`buffer_pkts`)
                  is one a reader may type into a study file
"""
from __future__ import annotations

import re

MAX_DIGITS = 6          # no metric has a resolution finer than 1e-6 of its value (metric_thresholds.yaml)

# Internal words a reader does not know, each with why it is banned (checked as whole words, any case
# for the words, exactly for the symbols).
CODE_WORDS = {
    "run_time_limit": "a study-file key; the reader's word is 'time limit of a run'",
    "stack:": "a study-file key with its colon; say 'the Linux variant of the TCP stack'",
    "part (a)": "the index of a part of a claim's decide block; the note names what the part compares",
    "part (b)": "as part (a)",
    "part (c)": "as part (a)",
    "target:": ("the decide block's key for the algorithm an `extreme` part tests; name the algorithm "
                "(the plain word is English: 'the target RTT')"),
}
# snake_case names the book uses as names, each with why a reader may meet it in prose
ALLOWED = {
    "as_published": ("the name of the M/M/1 model variant that runs the paper's published code; the Method page "
                     "defines it and every M/M/1 table and figure labels its rows by it"),
    "published_tahoe": "the paper's published Tahoe code as an algorithm of that variant (defined on the Method page)",
    "published_reno": "the paper's published Reno code as an algorithm of that variant (defined on the Method page)",
    "published_cubic": "the paper's published Cubic code as an algorithm of that variant (defined on the Method page)",
}
# a snake_case identifier: two or more lower-case words joined by underscores
SNAKE = re.compile(r"(?<![\w./:=-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/]|\.[a-z]{2,4}\b)")
_WORDS = re.compile("|".join(
    (rf"\b{re.escape(w)}\b" if w[-1].isalnum() else rf"\b{re.escape(w)}") for w in CODE_WORDS), re.I)

_NUMBER = r"(?<![\w.])[-−]?\d+(?:\.\d+)?"
EXPONENT = re.compile(r"(?<!p = )(?<!p=)(?<![\w.])\d+(?:\.\d+)?[eE][-+]?\d+\b")
LONG = re.compile(r"(?<![\w.])\d*\.?\d{%d,}\b" % (MAX_DIGITS + 1))
ZERO_WIDTH = re.compile(rf"\[\s*({_NUMBER})\s*,\s*\1\s*\]")
P_VALUE = re.compile(r"\bp\s*=\s*(?:[01](?:\.0+)?(?![\d.×])|\d+(?:\.\d+)?[eE][-+]?\d+)")

CONTEXT = 40


def _significant(number: str) -> int:
    """Significant digits of a decimal number as written ('0.0000120' -> 3)."""
    digits = number.replace(".", "").lstrip("-−").lstrip("0")
    return len(digits)


def _snippet(text: str, m: re.Match) -> str:
    return " ".join(text[max(0, m.start() - CONTEXT):m.end() + CONTEXT].split())


def problems(text: str, prose: str | None = None) -> list[tuple[str, str]]:
    """(kind, snippet) of every problem in a page's reader text, each snippet once per kind. `prose` is
    the same text without inline code (None: `text`): a snake_case name in code type (`buffer_pkts`) is
    one a reader may type into a study file, so only prose is searched for them; the banned words of
    CODE_WORDS are searched in both."""
    found = []
    for kind, pattern, keep, where in (
            ("float_noise", EXPONENT, lambda m: True, text),
            ("float_noise", LONG, lambda m: _significant(m.group(0)) > MAX_DIGITS and "." in m.group(0), text),
            ("zero_width_ci", ZERO_WIDTH, lambda m: True, text),
            ("p_value", P_VALUE, lambda m: True, text),
            ("code_word", _WORDS, lambda m: True, text),
            ("code_word", SNAKE, lambda m: m.group(0) not in ALLOWED, text if prose is None else prose)):
        for m in pattern.finditer(where):
            item = (kind, _snippet(where, m))
            if keep(m) and item not in found:
                found.append(item)
    return found
