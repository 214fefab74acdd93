"""Serve ITables' DataTables bundle from the installed package, so that interactive tables work offline.

The notebooks display their tables with ``itables.to_html_datatable(..., connected=False)``, which
waits for ``window._itables_<version>``.  Instead of embedding the 0.7 MB bundle in every notebook
output (``init_notebook_mode(connected=False)``), this extension writes the bundle of the installed
itables into ``_static/itables/loader.js`` of the built site, loaded by every page: a classic script
that imports the bundle from a blob URL, as itables' own offline mode does, so that the pages work
from ``file://`` too (a module script fetched from a file URL is refused by browsers) and fetch
nothing from the network.
"""
from __future__ import annotations

import base64
from pathlib import Path

LOADER = """// The DataTables bundle that ITables' offline tables wait for (written by book/_ext/itables_offline.py).
(function () {{
  const key = "{key}";
  if (window[key]) return;
  const style = document.createElement("style");
  style.textContent = atob("{css}");
  document.head.appendChild(style);
  const url = URL.createObjectURL(new Blob([atob("{js}")], {{type: "application/javascript"}}));
  window[key] = import(url);
  window[key].then(() => window.dispatchEvent(new Event("{event}")));
}})();
"""


def _itables_html() -> tuple[Path, str]:
    import itables
    version = itables.__version__
    return Path(itables.__file__).parent / "html", version


def _copy(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    html, version = _itables_html()
    target = Path(app.outdir) / "_static" / "itables"
    target.mkdir(parents=True, exist_ok=True)
    b64 = {ext: base64.b64encode((html / f"dt_bundle.{ext}").read_bytes()).decode("ascii") for ext in ("js", "css")}
    key = "_itables_" + version.replace(".", "_")
    (target / "loader.js").write_text(LOADER.format(key=key, event=f"itables-{version}-ready", js=b64["js"],
                                                    css=b64["css"]))


def setup(app):
    app.add_js_file("itables/loader.js")
    app.connect("build-finished", _copy)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
