"""The progress bars of privlib's sweeps, through the public runner ``privlib.experiments.run``
(every sweep shows its bar there; the bar itself is private, ``privlib._progress``)."""
import pytest

from privlib.experiments import run


def _run(total, capsys, progress="text"):
    capsys.readouterr()
    run(abs, range(total), progress=progress, desc="demo")
    return capsys.readouterr()


def test_text_bar_is_reproducible_and_steps_by_tenths(capsys):
    first = _run(37, capsys)
    second = _run(37, capsys)
    assert first.err == second.err and first.out == "" == second.out
    frames = first.err.replace("\n", "").split("\r")
    frames = [f for f in frames if f]
    assert frames[0] == "demo:   0%|                    | 0/37"
    assert frames[-1] == "demo: 100%|####################| 37/37"
    shown = [int(f.rsplit(" ", 1)[1].split("/")[0]) for f in frames]
    # one frame every ceil(37 / 10) = 4 steps, then the last one; never a time or a rate
    assert shown[:-1] == list(range(0, 37, 4)) and shown[-1] == 37
    assert "it/s" not in first.err and "<" not in first.err


def test_no_bar_prints_nothing(capsys):
    out = _run(5, capsys, progress=False)
    assert out.out == "" and out.err == ""
    out = _run(0, capsys, progress="text")
    assert out.out == "" and out.err == ""


def test_bad_progress_is_refused():
    for bad in ("yes", 1, None, "TEXT"):
        with pytest.raises(ValueError, match=r"progress: expected True, False or 'text', got"):
            run(abs, [1], progress=bad)
    assert run(abs, [-1], progress="text") == [1] and run(abs, [-1], progress=True) == [1]


def test_sweeps_show_the_text_bar(capsys):
    capsys.readouterr()
    assert run(abs, [-2, 4, -8], progress="text") == [2, 4, 8]
    assert capsys.readouterr().err.rstrip("\n").endswith("sweep: 100%|####################| 3/3")
    with pytest.raises(ValueError, match="progress: expected"):
        run(abs, [1], progress="bar")
