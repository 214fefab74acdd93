"""The parallel runner and its seeding rule (privlib.experiments.run / spawn)."""
import numpy as np
import pytest

from privlib.experiments import check_n_jobs, run, spawn


def _draw(task, *, scale=1.0):
    """A task that draws from its own child seed (module level: workers import it)."""
    i, seed = task
    return i, float(scale * np.random.default_rng(seed).normal())


def test_spawn_is_seedsequence_spawn():
    got = [s.generate_state(2).tolist() for s in spawn(11, 3)]
    want = [s.generate_state(2).tolist() for s in np.random.SeedSequence(11).spawn(3)]
    assert got == want


def test_spawn_children_differ_and_repeat():
    a = [np.random.default_rng(s).integers(1 << 30) for s in spawn(5, 4)]
    b = [np.random.default_rng(s).integers(1 << 30) for s in spawn(5, 4)]
    assert a == b and len(set(a)) == 4


def test_spawn_generator_advances():
    g = np.random.default_rng(0)
    first = spawn(g, 1)[0].generate_state(1)[0]
    second = spawn(g, 1)[0].generate_state(1)[0]
    assert first != second


def test_spawn_none_is_fresh_entropy():
    assert spawn(None, 1)[0].generate_state(1)[0] != spawn(None, 1)[0].generate_state(1)[0]


@pytest.mark.parametrize("seed, exc, text", [(True, TypeError, "seed"),
                                             (1.5, TypeError, "seed"), (-1, ValueError, "seed")])
def test_spawn_bad_seed(seed, exc, text):
    with pytest.raises(exc, match=text):
        spawn(seed, 2)


@pytest.mark.parametrize("n", [-1, 1.0, True, "3"])
def test_spawn_bad_n(n):
    with pytest.raises(ValueError, match="n:"):
        spawn(0, n)


@pytest.mark.parametrize("n_jobs", [0, -2, 1.5, True, "2", None])
def test_bad_n_jobs(n_jobs):
    with pytest.raises(ValueError, match="n_jobs"):
        check_n_jobs(n_jobs)
    with pytest.raises(ValueError, match="n_jobs"):
        run(abs, [1], n_jobs=n_jobs)


def test_bad_progress_and_fn():
    with pytest.raises(ValueError, match="progress"):
        run(abs, [1], progress="yes")
    with pytest.raises(TypeError, match="fn"):
        run(3, [1])


def test_one_and_two_workers_identical():
    tasks = list(enumerate(spawn(2026, 12)))
    one = run(_draw, tasks, n_jobs=1, shared={"scale": 2.0})
    two = run(_draw, tasks, n_jobs=2, shared={"scale": 2.0})
    assert one == two
    assert [r[0] for r in one] == list(range(12))          # task order kept


def test_order_kept_and_empty():
    assert run(abs, [-3, 1, -2], n_jobs=2) == [3, 1, 2]
    assert run(abs, [], n_jobs=2) == []


def test_text_progress_on_stderr(capsys):
    run(abs, list(range(20)), progress="text", desc="demo")
    err = capsys.readouterr().err
    assert "demo" in err and "20/20" in err
