"""The generated part of the book's Artifact evaluation page (book/artifact.md, `{{ artifact }}`): where
this copy of the artifact comes from (repository address, version, commit, licence) and the commands a
reviewer runs, read from the files that define them so that the page cannot drift from them:
the README's first bash block (the same lines CI runs, .ci/run), CITATION.cff and pyproject.toml.

The repository's address is declared once, as CITATION.cff's `repository-code` (.zenodo.json repeats it as
its `isSupplementTo` URL; tests/test_artifact.py checks they agree): never the git remote, which in a clone
of a local folder is a path on someone's machine.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

NO_REMOTE = ("not published yet: the project has no public web address so far; once it has one, the address "
             "and the archive's DOI are given here (declared in `CITATION.cff`)")


def readme_commands(readme: Path) -> tuple[str, str]:
    """(set-up and build, tests): the two lines of the README's first bash block, as .ci/run reads them."""
    blocks = re.findall(r"^```bash\n(.*?)^```", readme.read_text(), flags=re.S | re.M)
    lines = blocks[0].strip().splitlines() if blocks else []
    if len(lines) < 2:
        raise ValueError(f"{readme}: its first bash block should hold the set-up and the test command")
    return lines[0], lines[1]


def project_field(pyproject: Path, key: str) -> str:
    """A `key = "value"` of pyproject.toml's [project] table (version), or the text of license = { text = ... }."""
    m = re.search(rf'^{key}\s*=\s*(?:\{{\s*text\s*=\s*)?"([^"]+)"', pyproject.read_text(), flags=re.M)
    return m.group(1) if m else "unknown"


def declared_repository(root: Path) -> str:
    """CITATION.cff's `repository-code`, or "" when it declares none."""
    cff = yaml.safe_load((root / "CITATION.cff").read_text()) or {}
    return str(cff.get("repository-code") or "")


def archived_repository(root: Path) -> str:
    """.zenodo.json's repository address (its related identifier of relation isSupplementTo), or ""."""
    meta = json.loads((root / ".zenodo.json").read_text())
    urls = [r.get("identifier", "") for r in meta.get("related_identifiers", [])
            if r.get("relation") == "isSupplementTo" and r.get("scheme") == "url"]
    return urls[0] if urls else ""


def origin(remote: str) -> str:
    """The repository's address for the page: the declared address if it is a public one (https, with any
    user name or token removed, or git@host:path), or why there is none (a path on someone's machine says
    nothing to a reader)."""
    m = re.match(r"^(https?://)(?:[^@/]*@)?(\S+)$", remote)
    if m:
        return f"<{m.group(1)}{m.group(2)}>"
    if re.match(r"^[\w.-]+@[\w.-]+:\S+$", remote):
        return f"`{remote}`"
    return NO_REMOTE


def generated(root: Path, commit: str) -> str:
    """Markdown: a table of where this copy comes from, then the reviewer's commands."""
    setup, tests = readme_commands(root / "README.md")
    rows = {
        "repository": origin(declared_repository(root)),
        "version": f"`{project_field(root / 'pyproject.toml', 'version')}` (`pyproject.toml`, `CITATION.cff`)",
        "commit": f"`{commit}`",
        "licence": f"{project_field(root / 'pyproject.toml', 'license')} (`LICENSE`)",
        "how to cite": "`CITATION.cff`",
    }
    table = "| | |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows.items())
    return (f"{table}\n\n"
            f"Set-up and the whole report, from the repository root:\n\n```bash\n{setup}\n```\n\n"
            f"The tests:\n\n```bash\n{tests}\n```")
