"""Check the built HTML book in a real browser (headless Chromium) and screenshot every page.

Every page of the book (not genindex.html, search.html, nor an index.html that only redirects) is
opened as a file:// URL in headless Chromium with a 1,280 px wide viewport, screenshotted at its
full height (`<screenshots>/<page>.png`, no height cap) and checked for:

  overflow       the page scrolls sideways (scrollWidth > clientWidth), an element of the main
                 column sticks out of it, or a box in it scrolls sideways (part of it hidden); the
                 report's wide tables (chapter.frame_html: class table-scroll, first column frozen)
                 scroll on purpose and do not count
  broken_link    an <a href> into the book whose file does not exist, or whose #fragment is no id
                 (or <a name>) of the target page
  image          an <img> that did not load (not complete, or naturalWidth 0)
  error_text     "Traceback", or a word ending in "Error" (Error, ValueError, ...), case-sensitive,
                 in the visible text (folded code is not visible); "Error bars" is prose, not an error
  absolute_path  a machine path (/tmp/, /home/, /root/, /work/) or file:// in the page's text,
                 hidden (folded code) included, or in a link or image address
  caption        an <img> of the main column without a caption: a <figcaption> of its <figure>, or
                 what Chapter.caption writes, an italic paragraph (<p><em>..</em></p>) that is the
                 next text after the image
  too_tall       the page is taller than MAX_HEIGHT (15,000 px) at 1,280 px: the answer comes first
                 and long tables and secondary sections are folded (chapter.long_frame_html, folded)

  float_noise, zero_width_ci, p_value, code_word
                 in the reader's text of the main column (folded included; code cells and math not):
                 see simulator/report/reader_text.py
  verdict_low    a chapter's verdict box (class verdict-box) ends more than FIRST_SCREEN (800) px down
                 the page at 1,280 px: the answer must fit the first screen

The JSON report gives every page's height (`heights`, px at the check's width) and where each
verdict box ends (`verdict_bottoms`, px from the top of the page).

    python -m simulator.report.browser_check results/book/_build/html --screenshots results/screenshots
    python -m simulator.report.browser_check <html dir> --json report.json   # '--json' alone: stdout

Exit status: 0 no problem, 1 problems, 2 Chromium or chromedriver missing (0 for both with
--exit-zero, which the workflow uses: the test tests/test_book_browser.py fails on them instead).
"""
from __future__ import annotations

import argparse
import base64
import collections
import concurrent.futures
import functools
import json
import re
import shutil
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote, urlsplit

from simulator.report import reader_text

WIDTH = 1280
VIEWPORT_HEIGHT = 900      # while measuring; screenshots are as tall as the page
SKIPPED_PAGES = ("genindex.html", "search.html")
CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
MISSING_HELP = "install the Debian packages chromium and chromium-driver (apt-get install chromium chromium-driver)"
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                  "--no-first-run", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync")
ERROR_WORDS = re.compile(r"\bTraceback\b|\b[A-Za-z]*Error\b(?! bars?\b)")   # "Error bars are 95% CIs" is prose
MACHINE_PATH = re.compile(r"(?<![\w.~-])(?:/tmp/|/home/|/root/|/work/)|file://")
CONTEXT = 50   # characters either side of a text hit
MAX_HEIGHT = 15000   # px at WIDTH: a page a reader scrolls through, not a data dump
FIRST_SCREEN = 800   # px: a chapter's verdict box ends above this at WIDTH, on the first screen of a laptop


class Problem(NamedTuple):
    page: str
    kind: str
    detail: str


class BrowserMissing(RuntimeError):
    pass


# What the page reports about itself, measured in the browser once it has loaded (MathJax included).
PAGE_FACTS_JS = r"""
const done = arguments[arguments.length - 1];
const wait = (window.MathJax && MathJax.startup && MathJax.startup.promise) || Promise.resolve();
Promise.race([wait, new Promise(r => setTimeout(r, 10000))]).then(() => document.fonts.ready).then(() => {
  const root = document.documentElement;
  const main = document.querySelector("main article, article[role=main], main, [role=main]") || document.body;
  const name = el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
      + (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\s+/).join(".") : "");
  const folded = el => { const d = el.closest("details:not([open])"); return !!d && !el.closest("summary"); };
  const where = el => { const sec = el.closest("section[id]"); return sec ? " in #" + sec.id : ""; };
  const shown = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden" && !folded(el);
  const clipped = el => {   // inside a box of the column that clips or scrolls (reported as such)
    for (let p = el.parentElement; p && p !== main; p = p.parentElement)
      if (getComputedStyle(p).overflowX !== "visible") return true;
    return false; };
  const box = main.getBoundingClientRect();
  const spill = [], scroll = [];
  for (const el of main.querySelectorAll("*")) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1) && !clipped(el)
        && !spill.some(s => s.el.contains(el)))
      spill.push({el, text: name(el) + where(el) + " (" + Math.round(r.width) + " px wide, column " + Math.round(box.width) + " px)"});
    // a box that scrolls sideways hides part of its content (overflow: hidden boxes are left
    // alone: the theme clips inline math that way, and MathJax's invisible parts stick out)
    // (the report's own wide tables scroll on purpose, their first column frozen: class table-scroll)
    if (["auto", "scroll"].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1
        && !el.classList.contains("table-scroll"))
      scroll.push(name(el) + where(el) + " (content " + el.scrollWidth + " px in " + el.clientWidth + " px)");
  }
  const pageWide = [];
  if (root.scrollWidth > root.clientWidth)
    for (const el of document.body.querySelectorAll("*"))
      if (shown(el) && el.getBoundingClientRect().right > root.clientWidth + 1 && pageWide.length < 3) pageWide.push(name(el));
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [], visible = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    if (!n.parentElement.closest("script, style, noscript")) {
      texts.push(n.nodeValue);
      if (shown(n.parentElement)) visible.push(n.nodeValue); }
  const nextText = img => {   // the first element with text after img, in document order, inside main
    const w = document.createTreeWalker(main, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    w.currentNode = img;
    for (let n = w.nextNode(); n; n = w.nextNode())
      if (n.nodeType === Node.TEXT_NODE && n.nodeValue.trim()) return n.parentElement;
      else if (n.nodeType === Node.ELEMENT_NODE && n.tagName === "IMG") return n;
    return null; };
  const isCaption = (img, el) => {
    const fig = img.closest("figure");
    if (fig && fig.querySelector("figcaption") && fig.querySelector("figcaption").innerText.trim()) return true;
    if (!el || el.tagName === "IMG") return false;
    const p = el.closest("p");
    return !!p && main.contains(p) && p.children.length === 1 && p.firstElementChild.tagName === "EM"
        && p.innerText.trim() === p.firstElementChild.innerText.trim(); };
  const reader = [], prose = [];   // what a reader reads in the column, folded included; not code cells nor
  // math, nor the print-only copy of the title (.onlyprint: not on screen); `prose` without inline code
  // either (a `name` in code type is one a reader may type in a study file)
  const words = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let n = words.nextNode(); n; n = words.nextNode())
    if (!n.parentElement.closest("pre, script, style, .cell_input, div.highlight, mjx-container, .MathJax, .headerlink, .onlyprint")) {
      reader.push(n.nodeValue);
      prose.push(n.parentElement.closest("code") ? " " : n.nodeValue); }
  const verdict = document.querySelector(".verdict-box");
  done({
    scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, height: root.scrollHeight,
    verdictBottom: verdict ? Math.round(verdict.getBoundingClientRect().bottom + window.scrollY) : null,
    reader: reader.join(" "), prose: prose.join(" "),
    pageWide, spill: spill.map(s => s.text), scroll,
    links: [...document.querySelectorAll("a[href]")].map(a => a.getAttribute("href")),
    srcs: [...document.querySelectorAll("img[src]")].map(i => i.getAttribute("src")),
    images: [...document.images].map(i => ({src: i.getAttribute("src") || "", ok: i.complete && i.naturalWidth > 0,
        main: main.contains(i), caption: isCaption(i, nextText(i))})),
    visible: visible.join(" "),
    text: texts.join(" "),
  });
});
"""


def pages(html_dir: Path) -> list[Path]:
    """The book's pages: every *.html outside its _static/_sources/_images folders, without the
    generated index and search pages and without an index.html that only redirects."""
    out = []
    for p in sorted(html_dir.rglob("*.html")):
        rel = p.relative_to(html_dir)
        if any(part.startswith("_") for part in rel.parts[:-1]) or rel.as_posix() in SKIPPED_PAGES:
            continue
        if rel.as_posix() == "index.html" and is_redirect(p):
            continue
        out.append(p)
    return out


def is_redirect(page: Path) -> bool:
    text = page.read_text(errors="replace")
    return bool(re.search(r'<meta[^>]+http-equiv=["\']?refresh', text, re.I)) and "<article" not in text


class _Anchors(HTMLParser):
    def __init__(self):
        super().__init__()
        self.names = set()

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if value and (key == "id" or (tag == "a" and key == "name")):
                self.names.add(value)


@functools.lru_cache(maxsize=None)
def anchors(page: Path) -> frozenset:
    """Every id (and <a name>) of an HTML file: the fragments a link may point at."""
    parser = _Anchors()
    parser.feed(page.read_text(errors="replace"))
    return frozenset(parser.names)


def link_problem(html_dir: Path, page: Path, href: str) -> Problem | None:
    """A problem with one href of `page`, or None (external links are not followed)."""
    rel = page.relative_to(html_dir).as_posix()
    url = urlsplit(href)
    if url.scheme == "file" or MACHINE_PATH.match(href) or (not url.scheme and href.startswith("/")):
        return Problem(rel, "absolute_path", f"link to {href}")
    if url.scheme or url.netloc:       # http(s), mailto, javascript, data: not the book's
        return None
    target = page if not url.path else (page.parent / unquote(url.path)).resolve()
    if not target.is_relative_to(html_dir.resolve()):
        return Problem(rel, "broken_link", f"{href} leaves the book")
    if target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        return Problem(rel, "broken_link", f"{href}: no file {target.relative_to(html_dir.resolve())}")
    fragment = unquote(url.fragment)
    if fragment and target.suffix == ".html" and fragment not in anchors(target):
        return Problem(rel, "broken_link", f"{href}: no id '{fragment}' in {target.name}")
    return None


def hits(pattern: re.Pattern, text: str) -> list[str]:
    """Each match of pattern in text with a little context, whitespace squeezed."""
    out = []
    for m in pattern.finditer(text):
        snippet = " ".join(text[max(0, m.start() - CONTEXT):m.end() + CONTEXT].split())
        if snippet not in out:
            out.append(snippet)
    return out


def page_problems(html_dir: Path, page: Path, facts: dict) -> list[Problem]:
    """Every problem of one page from what the browser measured (`PAGE_FACTS_JS`)."""
    rel = page.relative_to(html_dir).as_posix()
    found = []
    if facts["scrollWidth"] > facts["clientWidth"]:
        found.append(Problem(rel, "overflow", f"page is {facts['scrollWidth']} px wide in a {facts['clientWidth']} px "
                                              f"window; widest: {', '.join(facts['pageWide']) or '?'}"))
    found += [Problem(rel, "overflow", f"sticks out of the main column: {s}") for s in facts["spill"]]
    found += [Problem(rel, "overflow", f"scrolls sideways: {s}") for s in facts["scroll"]]
    for href in dict.fromkeys(facts["links"]):
        if problem := link_problem(html_dir, page, href):
            found.append(problem)
    for src in dict.fromkeys(facts["srcs"]):
        if urlsplit(src).scheme == "file" or MACHINE_PATH.match(src) or src.startswith("/"):
            found.append(Problem(rel, "absolute_path", f"image at {src}"))
    for img in facts["images"]:
        if not img["ok"]:
            found.append(Problem(rel, "image", f"did not load: {img['src']}"))
        if img["main"] and not img["caption"]:
            found.append(Problem(rel, "caption", f"no caption: {img['src']}"))
    found += [Problem(rel, "error_text", h) for h in hits(ERROR_WORDS, facts["visible"])]
    found += [Problem(rel, "absolute_path", h) for h in hits(MACHINE_PATH, facts["text"])]
    found += [Problem(rel, kind, h) for kind, h in reader_text.problems(facts.get("reader", ""), facts.get("prose"))]
    bottom = facts.get("verdictBottom")
    if bottom is not None and bottom > FIRST_SCREEN:
        found.append(Problem(rel, "verdict_low", f"the verdict box ends {bottom} px down the page at "
                                                 f"{facts.get('width', WIDTH)} px wide (at most {FIRST_SCREEN} px): "
                                                 "the answer fits the first screen"))
    if facts["height"] > MAX_HEIGHT:
        found.append(Problem(rel, "too_tall", f"page is {facts['height']} px tall at {facts.get('width', WIDTH)} px "
                                              f"wide (at most {MAX_HEIGHT} px): fold long tables and secondary sections"))
    return found


def find_program(names) -> str | None:
    return next((p for p in map(shutil.which, names) if p), None)


def open_browser(width=WIDTH):
    """Headless Chromium driven by chromedriver, both from PATH (Selenium Manager, which would
    download a driver, is never asked: the machine may be offline)."""
    chromium, driver = find_program(CHROMIUM), find_program(["chromedriver"])
    if not chromium or not driver:
        missing = ", ".join(n for n, p in (("chromium", chromium), ("chromedriver", driver)) if not p)
        raise BrowserMissing(f"{missing} not found on PATH: {MISSING_HELP}")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        raise BrowserMissing(f"selenium is not installed ({e}): pip install selenium") from e
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={tempfile.mkdtemp(prefix='book_check_')}",
                 f"--window-size={width},{VIEWPORT_HEIGHT}"):
        options.add_argument(flag)
    browser = webdriver.Chrome(options=options, service=Service(driver))
    browser.set_script_timeout(30)
    return browser


def set_viewport(browser, width: int, height: int) -> None:
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def screenshot(browser, path: Path, width=WIDTH) -> int:
    """The whole page as PNG, no height cap; returns its height. The viewport is made as tall as the
    page (Page.captureScreenshot's captureBeyondViewport leaves the bottom of long pages blank)."""
    height = browser.execute_script("return document.documentElement.scrollHeight")
    for _ in range(3):          # a taller viewport may change the page's height (100vh sidebars)
        set_viewport(browser, width, height)
        browser.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
        now = browser.execute_script("return document.documentElement.scrollHeight")
        if now == height:
            break
        height = now
    path.write_bytes(base64.b64decode(browser.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})["data"]))
    return height


def check_page(browser, html_dir: Path, page: Path, screenshots, width, log, heights=None,
               verdict_bottoms=None) -> list[Problem]:
    """One page: its facts measured at a reader's window size, its screenshot, its problems (its height
    into `heights`, keyed by the page, if given)."""
    rel = page.relative_to(html_dir).as_posix()
    t0 = time.monotonic()
    set_viewport(browser, width, VIEWPORT_HEIGHT)      # measured as a reader's window shows it
    browser.get(page.as_uri())
    facts = browser.execute_async_script(PAGE_FACTS_JS)
    if screenshots:
        shot = Path(screenshots) / (rel[:-len(".html")].replace("/", "__") + ".png")
        facts["height"] = screenshot(browser, shot, width)
    facts["width"] = width
    if heights is not None:
        heights[rel] = facts["height"]
    if verdict_bottoms is not None and facts.get("verdictBottom") is not None:
        verdict_bottoms[rel] = facts["verdictBottom"]
    found = page_problems(html_dir, page, facts)
    if log:
        print(f"{rel}: {facts['height']} px tall, {len(found)} problem(s), {time.monotonic() - t0:.1f} s",
              file=log, flush=True)
    return found


def check_book(html_dir, screenshots=None, width=WIDTH, log=None, browsers=2,
               heights=None, verdict_bottoms=None) -> tuple[list[Problem], list[str]]:
    """(problems, pages checked) of the book in html_dir; screenshots as <screenshots>/<page>.png; each page's
    height in px into `heights` (a dict) if given.  Pages are
    shared out over `browsers` browsers, the largest first (the book check ends the build: a long page's
    screenshot takes seconds); the problems come in page order whichever browser found them."""
    html_dir = Path(html_dir).resolve()
    todo = pages(html_dir)
    if not todo:
        return [Problem(".", "broken_link", f"no pages in {html_dir}")], []
    if screenshots:
        Path(screenshots).mkdir(parents=True, exist_ok=True)
    anchors.cache_clear()
    queue = collections.deque(sorted(todo, key=lambda p: -p.stat().st_size))
    found: dict[Path, list[Problem]] = {}

    def work():
        browser = open_browser(width)
        try:
            while True:
                try:
                    page = queue.popleft()      # atomic: the browsers never take the same page
                except IndexError:
                    return
                found[page] = check_page(browser, html_dir, page, screenshots, width, log, heights, verdict_bottoms)
        finally:
            browser.quit()

    n = max(1, min(browsers, len(todo)))
    with concurrent.futures.ThreadPoolExecutor(n) as pool:
        for done in [pool.submit(work) for _ in range(n)]:
            done.result()           # a browser's error (BrowserMissing, a timeout) is the check's
    return [p for page in todo for p in found[page]], [p.relative_to(html_dir).as_posix() for p in todo]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("html_dir", help="the built book, e.g. results/book/_build/html")
    ap.add_argument("--screenshots", default="results/screenshots", help="folder of <page>.png ('' for none)")
    ap.add_argument("--json", nargs="?", const="-", metavar="FILE", help="write the report as JSON (no FILE: stdout)")
    ap.add_argument("--width", type=int, default=WIDTH)
    ap.add_argument("--exit-zero", action="store_true", help="exit 0 even on problems or without Chromium")
    a = ap.parse_args(argv)

    t0 = time.monotonic()
    if a.screenshots:       # made even when Chromium is missing: the workflow's rule declares it
        Path(a.screenshots).mkdir(parents=True, exist_ok=True)
    report = {"html_dir": a.html_dir, "width": a.width, "screenshots": a.screenshots or None}
    try:
        heights, bottoms = {}, {}
        problems, checked = check_book(a.html_dir, a.screenshots or None, a.width, log=sys.stderr, heights=heights,
                                       verdict_bottoms=bottoms)
        report |= {"browser_missing": None, "pages": checked, "problems": [p._asdict() for p in problems],
                   "heights": {page: heights[page] for page in checked}, "max_height": MAX_HEIGHT,
                   "verdict_bottoms": {page: bottoms[page] for page in checked if page in bottoms},
                   "first_screen": FIRST_SCREEN}
        summary = (f"book check: {len(problems)} problem(s) on {len({p.page for p in problems})} of {len(checked)} "
                   f"pages in {time.monotonic() - t0:.0f} s")
        status = 1 if problems else 0
    except BrowserMissing as e:
        report |= {"browser_missing": str(e), "pages": [], "problems": [], "heights": {}, "max_height": MAX_HEIGHT,
                   "verdict_bottoms": {}, "first_screen": FIRST_SCREEN}
        summary = f"book check NOT RUN: {e}; tests/test_book_browser.py fails until it runs"
        status = 2
    report["seconds"] = round(time.monotonic() - t0, 1)
    text = json.dumps(report, indent=1) + "\n"
    if a.json == "-":
        sys.stdout.write(text)
    elif a.json:
        Path(a.json).write_text(text)
    if a.json != "-":
        for p in report["problems"]:
            print(f"{p['page']}: {p['kind']}: {p['detail']}")
    print(summary, file=sys.stderr)
    return 0 if a.exit_zero else status


if __name__ == "__main__":
    sys.exit(main())
