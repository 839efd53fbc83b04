"""What every chapter notebook does around its figures and tables: where figures and downloads go,
saving a figure as PNG and SVG, captions, download links, and tables shown with their CSV.

A notebook opens one Chapter with its papermill parameters and then only calls into the report
package:

    ch = Chapter(figures_dir, downloads_dir, downloads_url)
    ch.figure(fig, "throughput_cwnd")
    ch.caption("Figure: ...")
    ch.table(frame, "summary.csv", "Mean over 10 seeds with 95% CI.")
    with chapter.folded("Time series of each run"):    # a secondary section, shown on a click
        ch.figure(...)

The answer comes first and no page grows past what a reader scrolls (browser_check.MAX_HEIGHT): a table
of more than LONG_TABLE rows shows its first PREVIEW_ROWS with the whole table folded under them.
"""
from __future__ import annotations

import base64
import contextlib
import glob
import html as html_text
from pathlib import Path

from simulator.report import io, style


LONG_TABLE = 25      # rows: a longer table shows a preview, the whole of it folded
PREVIEW_ROWS = 10
_FOLDS: list[list[str]] = []     # the HTML each open `folded` section has collected, innermost last


def emit(text: str) -> None:
    """Show raw HTML, or collect it into the innermost open `folded` section."""
    if _FOLDS:
        _FOLDS[-1].append(text)
        return
    from IPython.display import HTML, display

    display(HTML(text))


def markdown_html(text: str) -> str:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).render(text)


@contextlib.contextmanager
def folded(summary: str):
    """Everything shown inside `with folded(summary):` (figures, tables, text) is one folded <details>
    section: a secondary section that a click opens, so that the page stays short."""
    _FOLDS.append([])
    try:
        yield
    finally:
        parts = _FOLDS.pop()
    if parts:
        emit(f"<details class='folded'><summary>{html_text.escape(summary)}</summary>{''.join(parts)}</details>")


def files(given, pattern) -> list:
    """The papermill-given file list, or every file matching `pattern` when none was given."""
    return list(given) if given else sorted(glob.glob(pattern))


def html(text: str) -> None:
    """Show raw HTML (tables whose layout DataFrame.to_html cannot make: cells spanning rows, ...); a
    bare table goes into the scrolling box of scroll_html."""
    emit(scroll_html(text) if text.lstrip().startswith("<table") else text)


def frame_html(frame, **to_html) -> str:
    """`frame` as an HTML table in the book's table style; a table wider than the page scrolls in its
    own box with the first column frozen (book/_static/report.css), so the page never does."""
    return f'<div class="table-scroll">{frame.to_html(classes="repro", **to_html)}</div>'


def scroll_html(table_html: str) -> str:
    """Raw HTML of a table (cells spanning rows, ...) in the same scrolling box as frame_html's."""
    return f'<div class="table-scroll">{table_html}</div>'


def long_frame_html(frame, **to_html) -> str:
    """frame_html of `frame`; a table of more than LONG_TABLE rows as its first PREVIEW_ROWS with the
    whole table folded under them (a reader scrolls past ten rows, not past a hundred)."""
    if len(frame) <= LONG_TABLE:
        return frame_html(frame, **to_html)
    return (frame_html(frame.head(PREVIEW_ROWS), **to_html) +
            f"<details class='long-table'><summary>The first {PREVIEW_ROWS} of {len(frame)} rows; all {len(frame)} "
            f"rows</summary>{frame_html(frame, **to_html)}</details>")


def show(frame, index=True, float_format=None, na_rep="NaN") -> None:
    """Show `frame` as a table, without a download (Chapter.table writes one)."""
    html(long_frame_html(frame, index=index, float_format=float_format, na_rep=na_rep))


def png_width(data: bytes) -> int:
    """Width in pixels of a PNG (its IHDR chunk, which comes first)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return int.from_bytes(data[16:20], "big")


class Chapter:
    """Output folders of one chapter; figures and tables land there and are shown in the notebook."""

    def __init__(self, figures_dir, downloads_dir, downloads_url):
        import matplotlib.pyplot as plt

        style.apply(plt)
        self.figures_dir = Path(figures_dir)
        self.downloads_dir = Path(downloads_dir)
        self.downloads_url = downloads_url
        self.figures_dir.mkdir(parents=True, exist_ok=True)
        self.downloads_dir.mkdir(parents=True, exist_ok=True)

    def figure(self, fig, name) -> None:
        """Save `fig` as <name>.png and <name>.svg and show that PNG, at the size the notebook's own display
        (figure.dpi) would give it: drawing a figure of many panels takes a second, so it is drawn once
        for the PNG instead of once more for the notebook."""
        import matplotlib.pyplot as plt
        from IPython.display import Image, display

        png = self.figures_dir / f"{name}.png"
        fig.savefig(png, bbox_inches="tight")
        data = png.read_bytes()
        dpi = plt.rcParams["savefig.dpi"]
        scale = 1.0 if dpi == "figure" else plt.rcParams["figure.dpi"] / dpi
        width = round(png_width(data) * scale)
        try:        # every figure of the book: its text at least 9 px as the page shows it
            style.check_text_size(fig, name, width)
        except style.FigureTextTooSmall:
            png.unlink()
            plt.close(fig)
            raise
        fig.savefig(self.figures_dir / f"{name}.svg", bbox_inches="tight")
        plt.close(fig)      # saved: free it, a chapter draws dozens
        if _FOLDS:      # inside a folded section the image is part of its HTML
            emit(f'<img src="data:image/png;base64,{base64.b64encode(data).decode()}" width="{width}" alt="{name}">')
            return
        display(Image(data=data, width=width))

    @staticmethod
    def caption(text) -> None:
        """An italic caption under the figure or table just shown."""
        Chapter.markdown(f"*{text}*")

    @staticmethod
    def markdown(text) -> None:
        if _FOLDS:
            emit(markdown_html(text))
            return
        from IPython.display import Markdown, display

        display(Markdown(text))

    def download_link(self, name, label="Download as CSV") -> str:
        return f'<a href="{self.downloads_url}/{name}" download>{label}</a>'

    def save_download(self, frame, name, index=False) -> None:
        """Write `frame` as downloads/<name> (atomically), without showing it."""
        io.write_atomic(self.downloads_dir / name, lambda tmp: frame.to_csv(tmp, index=index))

    def table(self, frame, name, note="", index=False, float_format=None) -> None:
        """Show `frame` as an HTML table, write it as downloads/<name>, and the note under it with the
        download link where the note says {link} (at its end otherwise)."""
        self.save_download(frame, name, index=index)
        html(long_frame_html(frame, index=index, float_format=float_format))
        link = self.download_link(name)
        self.markdown(note.replace("{link}", link) if "{link}" in note else f"{note} {link}.".strip())

    def claims(self, rows, name, note="") -> None:
        """A chapter's claim rows (claims_view.chapter_claims) as the claims table, written as
        downloads/<name>, with the note and download link under it; more than LONG_TABLE rows as a table
        of one row per claim, the claims table folded under it."""
        from simulator.report.claims_view import claims_html, summary_html

        self.save_download(rows, name)
        if len(rows) > LONG_TABLE:      # one row per claim first; each setting's row a click away
            html(summary_html(rows))
            with folded(f"Each of the {len(rows)} claim rows: its verdict, our number, who is at fault and why"):
                html(claims_html(rows))
        else:
            html(claims_html(rows))
        link = self.download_link(name)
        self.markdown(note.replace("{link}", link) if "{link}" in note else f"{note} {link}.".strip())
