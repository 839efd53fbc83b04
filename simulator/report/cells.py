"""A table of written cells shown with the numbers behind it as a CSV download (`show_table`). The
cells are written by number_format (significant digits, integers, ties; units in the headers);
`num(v)` here is number_format's with this book's 4 digits for the paper-beside-ours tables."""
from __future__ import annotations

from simulator.report import chapter, number_format
from simulator.report.number_format import difference  # noqa: F401  (re-exported)


def num(v, digits: int = 4) -> str:
    """number_format.num to 4 significant digits."""
    return number_format.num(v, digits)


def show_table(ch, shown, data, name, caption) -> None:
    """`shown` (cells already written) as the book's table, `data` (the numbers behind it) as
    downloads/<name>, the caption under it ending with the download link."""
    ch.save_download(data, name)
    chapter.html(chapter.long_frame_html(shown, index=False, escape=False))
    ch.caption(f"{caption} {ch.download_link(name, 'Data (CSV)')}.")
