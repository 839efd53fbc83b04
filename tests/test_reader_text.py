"""What a reader must not meet in the book's text (simulator/report/reader_text.py), on constructed text;
the browser check runs it over every page of the built book (tests/test_book_browser.py)."""
import pytest

from simulator.report import reader_text as rt


@pytest.mark.parametrize("text, kind", [
    ("sd 5.225e-14 s", "float_noise"),
    ("utilization 0.30000000000000004", "float_noise"),
    ("RTT 96.38000001 ms", "float_noise"),
    ("goodput 96.38 [96.38, 96.38]", "zero_width_ci"),
    ("(p = 0)", "p_value"), ("(p = 1)", "p_value"), ("p = 1.0", "p_value"), ("p = 1e-130", "p_value"),
    ("the study key run_time_limit", "code_word"), ("set stack: linux", "code_word"),
    ("in part (c) of the claim", "code_word"), ("the extreme's target: vegas", "code_word"),
    ("vegas ping_rtt_mean_ms 4.759", "code_word"), ("delay_ms=10 reno", "code_word"),
])
def test_each_kind_is_found(text, kind):
    assert kind in {k for k, _ in rt.problems(text)}, rt.problems(text)


def test_what_a_reader_reads_is_left_alone():
    text = ("7.39 (deterministic), 7.22 [7.2, 7.25], p < 10⁻⁶, p = 3×10⁻⁴, p = 1×10⁻⁴, p = 0.032, p > 0.99, "
            "9.33×10⁻⁶, 1234.5, 0.000123, 123456, 1 000 000, made from studies/ns2_delay.yaml and "
            "results/tables/ns2_delay.csv, ns2_delay.yaml, the target RTT, the Linux stack, commit 3e4f5a1, "
            "version 0.3.1, alpha=1.2, lambda=5, variant as_published, published_tahoe")
    assert rt.problems(text) == []


def test_every_banned_and_every_allowed_word_says_why():
    assert all(isinstance(why, str) and len(why) > 10 for why in (*rt.CODE_WORDS.values(), *rt.ALLOWED.values()))


def test_a_name_in_code_type_is_allowed_but_a_banned_word_is_not():
    text, prose = "set `buffer_pkts` to 100; `stack:` linux", "set   to 100;   linux"
    assert [k for k, _ in rt.problems(text, prose)] == ["code_word"]       # stack: only
    assert "stack:" in rt.problems(text, prose)[0][1]
