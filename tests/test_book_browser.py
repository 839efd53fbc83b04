"""The book checked in a real browser (simulator/report/browser_check.py, headless Chromium).

* A small hand-written book with one defect per page proves each check fires, and a clean page
  (with the things that look like defects but are not) proves it stays quiet.
* The tiny profile's real book (session fixture `built_report`): the workflow's rule book_check
  ran the check; it must have run (Chromium installed: CI installs it, this test never skips),
  screenshotted every page at 1,280 px and full height, and found no problem.
"""
import base64
import json
import re
import struct
from pathlib import Path

import pytest

from simulator.report import browser_check as bc

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


def page(body: str, title="t") -> str:
    """A page shaped like the book's: the main column is <main><article>, 600 px wide."""
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title><style>"
            "body{margin:0;font:16px sans-serif} nav{position:absolute;left:0;width:200px}"
            "main{margin-left:220px;width:600px} span.math{display:inline-flex;overflow:hidden;max-width:100%}"
            f"</style></head><body><nav><img src='logo.png' alt='logo'></nav><main><article>{body}</article>"
            "</main></body></html>")


CLEAN = page("""
<h1 id="top">Clean</h1>
<p>Text with a <a href="other.html#sec">link</a>, a <a href="other.html">page</a>, a
<a href="#top">fragment</a>, a <a href="_static/data.csv" download>download</a>, an
<a href="https://example.org/x">external link</a> and <a href="mailto:a@b.c">mail</a>.</p>
<img src="_images/fig.png" width="500" height="100">
<p><em>Figure: a caption the way Chapter.caption writes it. Error bars are 95% CIs.</em></p>
<figure><img src="_images/fig.png" width="100" height="50"><figcaption>A figure directive's caption.</figcaption></figure>
<details><summary>Show code cell source</summary><pre>try:\n    x()\nexcept ValueError:\n    pass  # a very long line of folded code that would scroll sideways if it were shown, well past 600 px</pre></details>
<div style="overflow-x:auto"><table><tr><td>a table that fits</td></tr></table></div>
<p>Numbers as a reader reads them: 7.39 (deterministic), 7.22 [7.2, 7.25], p &lt; 10⁻⁶, p = 0.032, p &gt; 0.99,
9.33×10⁻⁶, 1234.5, 0.000123, Made from <code>studies/ns2_delay.yaml</code> and results/tables/ns2_delay.csv
(<a href="https://example.org/a_b">the site</a>), a Linux stack, the target RTT.</p>
<details><summary>Show code cell source</summary><pre>stack: linux\nrun_time_limit = ping_rtt_mean_ms</pre></details>
<div class="verdict-box"><p>Verdict: on the first screen.</p></div>
<p>Inline math that overhangs its clipping box: <span class="math"><span style="display:inline-block;width:14px;margin-right:-4px">K</span></span>.
Words that are not errors: errors, error, Terror, Errorless.</p>
""", "clean")

DEFECTS = {   # page -> (kind it must report, body)
    "page_wide.html": ("overflow", "<div style='width:2400px'>wide</div>"),
    "spill.html": ("overflow", "<div style='width:900px;background:#eee'>wider than the column</div>"),
    "scroll_box.html": ("overflow", "<div style='overflow-x:auto'><table><tr><td style='min-width:1500px'>"
                                    "a table wider than the column</td></tr></table></div>"),
    "broken_file.html": ("broken_link", "<a href='missing.html'>x</a>"),
    "broken_fragment.html": ("broken_link", "<a href='other.html#nowhere'>x</a>"),
    "image.html": ("image", "<img src='_images/missing.png'><p><em>Figure: a caption.</em></p>"),
    "traceback.html": ("error_text", "<pre>Traceback (most recent call last):\n  File x</pre>"),
    "exception.html": ("error_text", "<p>ValueError: could not convert</p>"),
    "error_word.html": ("error_text", "<p>Error: no table</p>"),
    "path_text.html": ("absolute_path", "<p>Made from /tmp/pytest-7/repo/results/tables/x.csv.</p>"),
    "path_folded.html": ("absolute_path", "<details><summary>code</summary><pre>f = '/home/me/x.csv'</pre></details>"),
    "path_link.html": ("absolute_path", "<a href='file:///etc/hosts'>hosts</a>"),
    "caption.html": ("caption", "<img src='_images/fig.png'><p>A plain paragraph is not a caption.</p>"),
    "too_tall.html": ("too_tall", "<div style='height:16000px'>a page taller than a reader scrolls</div>"),
    "float_exponent.html": ("float_noise", "<p>sd 5.225e-14 s against 5.23e-14 s</p>"),
    "float_tail.html": ("float_noise", "<table><tr><td>0.30000000000000004</td><td>96.38000001</td></tr></table>"),
    "zero_ci.html": ("zero_width_ci", "<details><summary>more</summary><p>goodput 96.38 [96.38, 96.38]</p></details>"),
    "p_one.html": ("p_value", "<p>not significant (p = 1)</p>"),
    "p_exponent.html": ("p_value", "<p>holds (p = 1e-130)</p>"),
    "code_key.html": ("code_word", "<p>set <code>stack:</code> to linux; part (c) is not testable</p>"),
    "code_snake.html": ("code_word", "<p>vegas ping_rtt_mean_ms 4.759 &lt; bbr 7.446</p>"),
    "verdict_low.html": ("verdict_low", "<div style='height:700px'>a long introduction</div>"
                                        "<div class='verdict-box' style='height:200px'>Verdict</div>"),
    "caption_two.html": ("caption", "<img src='_images/fig.png'><img src='_images/fig.png'>"
                                    "<p><em>Figure: one caption for the second image only.</em></p>"),
}


@pytest.fixture(scope="module")
def small_book(tmp_path_factory):
    html = tmp_path_factory.mktemp("book") / "html"
    (html / "_images").mkdir(parents=True)
    (html / "_static").mkdir()
    (html / "_images/fig.png").write_bytes(PNG)
    (html / "logo.png").write_bytes(PNG)
    (html / "_static/data.csv").write_text("a\n1\n")
    (html / "_static/skipped.html").write_text(page("<p>Traceback</p>"))   # theme files are not pages
    (html / "index.html").write_text('<html><head><meta http-equiv="Refresh" content="0; url=clean.html" /></head></html>')
    (html / "genindex.html").write_text(page("<p>Traceback</p><a href='nowhere.html'>x</a>"))
    (html / "search.html").write_text(page("<p>Traceback</p>"))
    (html / "clean.html").write_text(CLEAN)
    (html / "other.html").write_text(page("<h2 id='sec'>Section</h2><p>Nothing wrong here.</p>", "other"))
    for name, (_, body) in DEFECTS.items():
        (html / name).write_text(page(body, name))
    shots = html.parent / "shots"
    problems, checked = bc.check_book(html, shots)
    return html, shots, problems, checked


def by_page(problems) -> dict:
    out = {}
    for p in problems:
        out.setdefault(p.page, []).append(p)
    return out


def test_pages_skip_the_redirect_index_generated_pages_and_theme_files(small_book):
    _, _, _, checked = small_book
    assert set(checked) == {"clean.html", "other.html", *DEFECTS}


def test_clean_pages_have_no_problem(small_book):
    _, _, problems, _ = small_book
    found = by_page(problems)
    assert not found.get("clean.html") and not found.get("other.html"), found


@pytest.mark.parametrize("name", sorted(DEFECTS))
def test_each_defect_is_found_and_only_it(small_book, name):
    _, _, problems, _ = small_book
    found = by_page(problems).get(name, [])
    assert {p.kind for p in found} == {DEFECTS[name][0]}, found


def test_problems_say_what_and_where(small_book):
    _, _, problems, _ = small_book
    found = {p.page: p.detail for p in problems}
    assert "2400" in found["page_wide.html"] or "wide" in found["page_wide.html"]
    assert "missing.html" in found["broken_file.html"] and "nowhere" in found["broken_fragment.html"]
    assert "_images/missing.png" in found["image.html"]
    assert "Traceback" in found["traceback.html"] and "/tmp/pytest-7" in found["path_text.html"]
    assert "file:///etc/hosts" in found["path_link.html"]
    assert [p.detail for p in problems if p.page == "caption_two.html"] == ["no caption: _images/fig.png"]
    assert "5.225e-14" in found["float_exponent.html"] and "[96.38, 96.38]" in found["zero_ci.html"]
    assert "ping_rtt_mean_ms" in found["code_snake.html"] and "p = 1" in found["p_one.html"]
    assert re.fullmatch(r"the verdict box ends 9\d\d px down the page at 1280 px wide \(at most 800 px\): "
                        r"the answer fits the first screen", found["verdict_low.html"]), found["verdict_low.html"]
    assert re.fullmatch(r"page is 16\d\d\d px tall at 1280 px wide \(at most 15000 px\): fold long tables and "
                        r"secondary sections", found["too_tall.html"]), found["too_tall.html"]


def test_screenshots_are_full_height_at_1280_px(small_book):
    _, shots, _, checked = small_book
    assert sorted(p.name for p in shots.glob("*.png")) == sorted(c.replace(".html", ".png") for c in checked)
    width, height = png_size(shots / "scroll_box.png")
    assert width == bc.WIDTH and height >= 100


def test_link_check_without_a_browser(tmp_path):
    (tmp_path / "a.html").write_text("<p id='x'>a</p><a name='old'></a>")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub/index.html").write_text("<p>b</p>")
    here = tmp_path / "a.html"
    ok = ["a.html#x", "#old", "sub/", "sub/index.html", "https://x.org/a.html#nope", "a.html?q=1", "a%2Ehtml"]
    assert [bc.link_problem(tmp_path, here, h) for h in ok] == [None] * len(ok)
    kinds = {h: bc.link_problem(tmp_path, here, h).kind for h in
             ["b.html", "a.html#y", "../outside.html", "/work/book/a.html", "file:///tmp/a.html"]}
    assert kinds == {"b.html": "broken_link", "a.html#y": "broken_link", "../outside.html": "broken_link",
                     "/work/book/a.html": "absolute_path", "file:///tmp/a.html": "absolute_path"}


def test_error_and_path_patterns():
    hits = bc.hits(bc.ERROR_WORDS, "Error bars are CIs. An error, errors. KeyError: 'x'. Error: no file. Traceback")
    assert len(hits) == 3 and "KeyError" in hits[0] and "Error: no file" in hits[1] and "Traceback" in hits[2]
    assert not bc.hits(bc.ERROR_WORDS, "Error bars show 95% CIs; Terror; Errorless; error")
    assert len(bc.hits(bc.MACHINE_PATH, "see /tmp/x" + " and" * 40 + " file://a")) == 2
    assert not bc.hits(bc.MACHINE_PATH, "results/tmp/x, ./work/, a~/home/ is not a machine path")


def test_cli_writes_json_and_exits_1_on_problems(small_book, tmp_path, capsys):
    html, _, problems, _ = small_book
    out = tmp_path / "check.json"
    assert bc.main([str(html), "--screenshots", "", "--json", str(out)]) == 1
    report = json.loads(out.read_text())
    assert report["browser_missing"] is None and len(report["problems"]) == len(problems)
    assert report["heights"]["too_tall.html"] > bc.MAX_HEIGHT > report["heights"]["clean.html"] > 0
    assert report["verdict_bottoms"]["verdict_low.html"] > bc.FIRST_SCREEN > report["verdict_bottoms"]["clean.html"] > 0
    assert bc.main([str(html), "--screenshots", "", "--json", str(out), "--exit-zero"]) == 0
    assert "book check:" in capsys.readouterr().err


def test_cli_without_chromium_says_so_and_exit_zero_keeps_the_build_going(small_book, tmp_path, monkeypatch, capsys):
    html, _, _, _ = small_book
    monkeypatch.setenv("PATH", str(tmp_path))      # no chromium, no chromedriver
    out = tmp_path / "check.json"
    assert bc.main([str(html), "--json", str(out), "--screenshots", str(tmp_path / "s")]) == 2
    assert bc.main([str(html), "--json", str(out), "--screenshots", str(tmp_path / "s"), "--exit-zero"]) == 0
    assert "chromium" in json.loads(out.read_text())["browser_missing"]
    assert "NOT RUN" in capsys.readouterr().err


def png_size(path: Path) -> tuple[int, int]:
    return struct.unpack(">II", path.read_bytes()[16:24])


@pytest.mark.slow
def test_tiny_book_has_no_problem_in_a_real_browser(built_report):
    repo = built_report
    html = repo / "results/book/_build/html"
    report = json.loads((repo / "results/book_check.json").read_text())
    assert report["browser_missing"] is None, (
        f"the book was not checked: {report['browser_missing']} (CI installs them in .ci/run step 2)")
    assert set(report["pages"]) == {p.relative_to(html).as_posix() for p in bc.pages(html)}
    shots = repo / "results/screenshots"
    sizes = {p: png_size(shots / p.replace(".html", ".png")) for p in report["pages"]}
    assert {w for w, _ in sizes.values()} == {bc.WIDTH}, sizes
    assert max(h for _, h in sizes.values()) > 5000, sizes        # full height, not one window
    problems = "\n".join(f"{p['page']}: {p['kind']}: {p['detail']}" for p in report["problems"])
    assert not report["problems"], f"{len(report['problems'])} problem(s) in the tiny book:\n{problems}"
    # the answer first: every chapter that has a verdict box shows it on the first screen
    chapters = {"mm1.html", "qtcol.html", "ns2.html", "testbed.html", "mininet.html", "scorecard.html"}
    bottoms = report["verdict_bottoms"]
    assert chapters & set(report["pages"]) <= set(bottoms), bottoms
    assert all(0 < b <= bc.FIRST_SCREEN for b in bottoms.values()), bottoms
