"""One package per paper added with `python -m simulator new-paper NAME`: its claim checks (claims.py, the
module catalogue.yaml's `claims` names) and its own figures (chapter.py `show`, called by the generic
chapter simulator/report/paper_chapter.py)."""
