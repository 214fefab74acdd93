"""Figures of an unnumbered page are numbered from 1 on that page.

Sphinx numbers the figures of the numbered chapters per chapter ("Fig. 3.2") but those of the
unnumbered pages (the foundations, the tutorials, the reproduction report) with one counter
across the whole book, so the report's only figure was "Fig. 7".  After the table of contents
has assigned the numbers, this extension renumbers every figure whose number has no chapter
part, page by page, in the page's own order: the report's figure becomes "Fig. 1".  Cross
references ({numref}) read the same table, so they follow.
"""
from __future__ import annotations


def _renumber(app, env):
    # after the table of contents assigned the numbers (env-get-updated), before writing
    for docname, by_type in env.toc_fignumbers.items():
        for figtype, numbers in by_type.items():
            flat = sorted((num, fig_id) for fig_id, num in numbers.items() if len(num) == 1)
            for i, (_, fig_id) in enumerate(flat, start=1):
                numbers[fig_id] = (i,)



def setup(app):
    app.connect("env-check-consistency", _renumber)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
