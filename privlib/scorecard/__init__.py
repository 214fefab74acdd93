"""The reproduction scorecard every chapter ends with: one typed row per claim of the source.

A chapter's scorecard is an inventory of its source's results -- every table, figure, worked
example and numeric or qualitative claim -- in the source's order, one row each.  The status of
a row is always computed here, never typed in a notebook.

**The registry of readings.**  In the book every row comes from a registry written as data
(a change to it is committed before the values it judges; each chapter says when its registry
first entered git): ``book/scorecards/readings/<chapter>.csv``, one row per claim,
with the columns :data:`READING_COLUMNS`:

================== ==================================================================================
column             meaning
================== ==================================================================================
``id``             a slug, unique in the chapter; the notebook records the value under it
``where``          where the claim stands in the source ("Table 2", "Figure 4(a)")
``quote``          the source's words for the claim, verbatim and short
``claim``          the claim as the row shows it
``kind``           one of :data:`CLAIM_KINDS` (below)
``variant``        the analysis choice the row assumes, when the outcome depends on one (one row each)
``reading``        how the claim is tested, in words, and why that tolerance
``compare``        one of :data:`REGISTRY_COMPARES`: a comparison below, ``table`` (cell by cell) or
                   ``none`` (not reproduced)
``source``         the source's value as printed (``lo;hi`` for a range, ``true`` for a test)
``tolerance``      ``printed`` (half a unit of the last printed digit) or a number
``seeds``          for a value that depends on noise: the number of seeds (at least :data:`MIN_SEEDS`)
``explains``       for a hypothesis: the claim whose difference or reading it tests
``cause``          for a row that differs or is fragile: one of :data:`CAUSES`
``reason``         for a claim not reproduced: why
``choice``         for one option of a choice set: the choice's name (``choices.csv``)
``option``         the option's name (one of the choice's options in ``choices.csv``)
``of``             the id of the claim this row is an option of (one scorecard row, its verdict)
``can_fail``       for a reproduction tested in code: which plausible outcome would make it differ
``justification``  for a calibration: the parameter's independent justification (or "none")
``seed_seconds``   the cost of one seed on 2 cores, when above 5 s (then 10 seeds suffice)
================== ==================================================================================

**Choice sets, calibrations and intervals** (``privlib.scorecard._multiverse``).  The book's
choice sets are ``book/scorecards/readings/choices.csv`` (``chapter, choice, option, why``;
:func:`load_choices`).  A claim tested under every option of a choice has one registry row per
option (``choice``, ``option``, ``of``); the scorecard adds one row for the claim (id ``of``)
with its verdict (:func:`verdict`): ``robust`` (every option agrees; status ``agrees``),
``choice-dependent`` (status ``choice-dependent``, cause ``unstated choice``) or ``no option``
(status ``differs`` or ``fragile``).  Option rows carry ``option of`` and are never counted
(:func:`claim_rows`): each claim counts once.  A ``calibration`` (a parameter set so that a
result comes near the source's) is a choice set over the parameter's plausible range with a
``justification``; it is never an agreement.  A reproduction tested in code says in
``can_fail`` what would make it fail.  A noise-dependent reproduction or calibration runs
:data:`MIN_NOISE_SEEDS` seeds (:data:`MIN_COSTLY_SEEDS` when ``seed_seconds`` >
:data:`COSTLY_SECONDS`) and its note gives the source's value as a percentile of our seeds and
whether it lies in our t-based 95% prediction interval (:func:`prediction_interval`); a row
registered with cause ``noise`` whose source value lies outside it is shown ``unexplained``.
Rules a registry does not meet yet are listed in :data:`RULES_PENDING` and said under its rows.
Minimal use (chapter 6 or a new chapter)::

    # choices.csv:  one-scale,workload,qi-only,<why>   and   one-scale,workload,with-sa,<why>
    # one-scale.csv: rows x-qi (choice workload, option qi-only, of x) and x-sa (..., with-sa, of x)
    card = Scorecard.from_readings("one-scale")
    card.record("x-qi", Seeds(values_qi))   # each option recorded under its own id
    card.record("x-sa", Seeds(values_sa))
    publish_scorecard(card, prefix="ch6")   # one row "x" with its verdict, the options under it

:meth:`Scorecard.from_readings` loads it, :meth:`Scorecard.record` gives a claim its value, and
:meth:`Scorecard.check_complete` refuses a registered claim without a value (a value without a
registered claim is refused by :meth:`Scorecard.record`).  A reading changed after any result
had been seen gets an entry of the reading history (:func:`load_history`): the old reading, its
status, the new reading and why.

**Uniform rules.**  A value that depends on noise is judged in every seed: the row agrees only if
it agrees in every seed, is fragile if it agrees in some and differs if in none.  The source's
literal reading is the reproduction row; any other reading is a hypothesis.  A claim whose
outcome depends on an analysis choice has one row per variant.  A row that cannot fail is a
self-check.  Every row that differs or is fragile names its cause.

Kinds of row (only ``reproduction`` rows count in a chapter's headline):

====================== ====================================================================
kind                    what the row checks
====================== ====================================================================
``reproduction``        the source's result, recomputed from data and the described method
``source arithmetic``   the source's numbers checked against its own printed inputs
``self-check``          a property or theorem that can only fail on a bug of ours
``hypothesis``          a reading chosen to explain a difference (never counted as agreement)
``cross-source``        a comparative claim of one source tested on the book's common scale
``calibration``         a parameter set so that a result comes near the source's (never agrees
                        in a headline; shown across the parameter's plausible range)
====================== ====================================================================

Statuses: ``agrees``, ``differs``, ``fragile`` (the status flips across seeds: it agrees in some
and differs in others), ``choice-dependent`` (a choice set's claim that agrees under some options
and not others) and ``not reproduced`` (with the reason: confidential data, a number not
printed, out of scope).

Tolerance policy (:data:`TOLERANCE_POLICY`): a number the source prints agrees when ours is
within half a unit of its last printed digit (pass the source's value as the printed string and
``tolerance="printed"``); a wider tolerance must be stated in the row's note with its reason.
A qualitative claim is turned into a test written next to it, its reading chosen before the
result is known; a test that passes whatever the data is a ``self-check``, not an agreement.

Comparisons (``compare=``):

============ ===========================================================================
compare       agrees when
============ ===========================================================================
``abs``       ``|ours - source| <= tolerance``
``rel``       ``|ours - source| <= tolerance * |source|``
``at_least``  ``ours >= source - tolerance``
``at_most``   ``ours <= source + tolerance``
``range``     ``source = (lo, hi)`` and ``lo - tolerance <= ours <= hi + tolerance``
``holds``     ``ours`` is a boolean that is True (a qualitative claim checked in code)
============ ===========================================================================

A table or figure is one claim: :meth:`Scorecard.add_table` (or :meth:`Scorecard.record_table`) compares every cell and shows the
largest error and the number of cells.  A value that depends on noise is given over several
seeds (:class:`Seeds`): the row agrees only if it agrees in every seed, differs only if it
differs in every seed, and is ``fragile`` otherwise ("agrees in 7 of 10 seeds").

:meth:`Scorecard.save` writes ``book/scorecards/<chapter>.csv``; the book's reproduction report
(``book/reproducibility.ipynb``) gathers every chapter's rows with :func:`load_scorecards`.
"""
from ._card import Scorecard
from ._claim import (CAUSES, CLAIM_KINDS, COLUMNS, COMPARISONS, STATUSES, TOLERANCE_POLICY, Claim, Seeds, half_unit,
                     readings_dir, scorecard_dir, status)
from ._multiverse import (CHOICE_COLUMNS, COSTLY_SECONDS, DIRECTIONS, MIN_COSTLY_SEEDS, MIN_NOISE_SEEDS,
                          RULES_PENDING, VERDICTS, change_direction, claim_rows, history_status, load_choices,
                          prediction_interval, verdict)
from ._files import cause_counts, headline, load_scorecards
from ._registry import (HISTORY_COLUMNS, MIN_SEEDS, READING_COLUMNS, REGISTRY_COMPARES, load_history,
                        load_readings, validate_readings, write_readings)

__all__ = [
    "Claim",
    "Scorecard",
    "Seeds",
    "status",
    "half_unit",
    "scorecard_dir",
    "load_scorecards",
    "headline",
    "cause_counts",
    "readings_dir",
    "load_readings",
    "validate_readings",
    "write_readings",
    "load_history",
    "CLAIM_KINDS",
    "COMPARISONS",
    "STATUSES",
    "CAUSES",
    "COLUMNS",
    "TOLERANCE_POLICY",
    "READING_COLUMNS",
    "HISTORY_COLUMNS",
    "REGISTRY_COMPARES",
    "MIN_SEEDS",
    "CHOICE_COLUMNS",
    "VERDICTS",
    "MIN_NOISE_SEEDS",
    "MIN_COSTLY_SEEDS",
    "COSTLY_SECONDS",
    "RULES_PENDING",
    "load_choices",
    "verdict",
    "prediction_interval",
    "claim_rows",
    "DIRECTIONS",
    "change_direction",
    "history_status",
]
