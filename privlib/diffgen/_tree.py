"""CA's learner grown from class-count histograms: scikit-learn's tree, same splits, less work.

:func:`privlib.diffgen.accuracy` trains scikit-learn's ``DecisionTreeClassifier`` (entropy,
``min_weight_fraction_leaf``, :data:`~privlib.diffgen.TREE_PARAMS`) on a release: one row per
released cell, its features the cut indices (small integers), its weight the released count (an
integer).  scikit-learn sorts the rows of every node once per feature.  With integer features
and integer weights the same tree follows from histograms: per node and feature, the weighted
class counts of every code (per level of the tree, one ``bincount`` per feature for all the
level's nodes; a node's larger child is its parent minus its smaller child), whose cumulative
sums are every candidate split's child class counts -- exact integers in float64, whatever the
order of summation, as scikit-learn's running sums are.  The tree is grown breadth-first and
only the rows of the test set are routed through it (no tree object is built).

The decisions are scikit-learn's (``sklearn/tree/_splitter.pyx``, ``node_split_best``;
``_tree.pyx``, ``DepthFirstTreeBuilder``; ``_criterion.pyx``, ``Entropy``):

* a node is a leaf when it holds fewer than 2 rows, weighs less than twice the minimum leaf
  weight ``min_weight_fraction_leaf * sum(weights)``, or is pure (entropy 0);
* a candidate split separates two successive codes present in the node, and both children
  weigh at least the minimum leaf weight;
* the chosen split maximises the proxy ``-w_R H_R - w_L H_L`` (``H`` the entropy in bits,
  ``log(p) = ln(p) / ln(2)``); on equal proxies the first code of a feature wins, and between
  features scikit-learn's random feature order decides;
* a node whose best split's impurity improvement is below ``-DBL_EPSILON`` stays a leaf;
* the threshold is the mid-point of the split's last left code and the next code present in the
  node (a test record whose code lies between them goes left);
* a leaf predicts the class of largest weight (the first on ties).

The proxies are computed with numpy's ``log``, whose last bit may differ from the C library's
(and between numpy's SIMD paths); so no decision reads a last bit: when two candidates of a node
are within a relative ``1e-9`` of each other, or an improvement is within ``1e-9`` of 0, they are
recomputed operation for operation as scikit-learn does (``math.log`` is the C library's
``log``).  An exact tie between two features (frequent: a split whose left counts are another's
right counts has the same proxy) is decided by scikit-learn's random feature order: the
splitter's ``rand_int`` draws (``our_rand_r``, seeded by ``RandomState(random_state).randint(0,
RAND_R_MAX)``) and its bookkeeping of constant features are replayed over the nodes in its
depth-first order, up to the last tied node (whose subtree is grown once the tie is decided).
This follows scikit-learn 1.9's code; ``tests/test_diffgen_tree.py`` compares the CA with
scikit-learn's own tree on large releases (exact ties included) and pins a Figure 3 sweep
computed before this module existed, so a change of scikit-learn's algorithm would fail them.
"""
from __future__ import annotations

import math

import numpy as np

#: ``DBL_EPSILON``, scikit-learn's tolerance of a pure node and of a non-positive improvement.
_EPS = float(np.finfo(np.float64).eps)
_LN2 = math.log(2.0)
#: Relative gap under which two proxies (or an improvement and 0) are recomputed exactly.
_TOL = 1e-9
#: Largest total number of codes (all features) the histograms hold per node.
MAX_CODES = 4096


def _entropy_exact(counts, total: float) -> float:
    """scikit-learn's ``Entropy.node_impurity`` / ``children_impurity`` of one node, operation
    for operation (the classes in order, ``count / total``, ``log2 = ln / ln(2)``, C's ``log``)."""
    e = 0.0
    for c in counts:
        c = float(c)
        if c > 0.0:
            p = c / total
            e -= p * (math.log(p) / _LN2)
    return e


def _entropy_approx(counts: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """Row-wise entropy in bits of ``counts`` (rows x classes) by numpy (last bit not exact)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / totals[:, None]
        t = np.where(counts > 0, p * (np.log(np.where(counts > 0, p, 1.0)) / _LN2), 0.0)
    return -t.sum(axis=1)

def _exact_choice(left, total, w_node, feat_of, pos):
    """The split scikit-learn chooses among the near-best candidates ``pos`` of one node (their
    left class counts ``left``; node class counts ``total``), by exact proxies.  Returns
    ``(position, None)``, or ``(None, {feature: its first best position})`` when several
    features tie exactly (their order in the splitter decides)."""
    best, best_pos = -math.inf, []
    for lft, p in zip(left, pos):
        wl = float(lft.sum())
        wr = w_node - wl
        proxy = -wr * _entropy_exact(total - lft, wr) - wl * _entropy_exact(lft, wl)
        if proxy > best:
            best, best_pos = proxy, [int(p)]
        elif proxy == best:
            best_pos.append(int(p))
    firsts: dict = {}
    for p in best_pos:                      # positions are in code order within a feature
        firsts.setdefault(int(feat_of[p]), p)
    if len(firsts) > 1:
        return None, firsts
    return min(best_pos), None


def _improvement_exact(t, lft, W) -> float:
    """``Criterion.impurity_improvement`` of one split, operation for operation."""
    w_ = float(t.sum())
    wl = float(lft.sum())
    wr = w_ - wl
    return (w_ / W) * (_entropy_exact(t, w_) - (wr / w_ * _entropy_exact(t - lft, wr))
                       - (wl / w_ * _entropy_exact(lft, wl)))


_RAND_R_MAX = 2147483647


class _Grower:
    """Grows the tree level by level; see the module docstring."""

    def __init__(self, X, y, w, Xt, K, mwf, seed):
        self.y, self.w, self.Xt, self.K = y, w, Xt, K
        self.seed = seed
        n, d = X.shape
        self.n, self.d = n, d
        XT = np.ascontiguousarray(X.T)     # (features, rows): a release's codes are stored so (no copy)
        self.Xflat = XT.ravel()            # feature f of row i at f * n + i
        self.W = float(np.sum(w))
        self.mwl = mwf * self.W
        self.pred = np.zeros(len(Xt), dtype=np.int64)
        lo, hi = XT.min(axis=1), XT.max(axis=1)
        self.feats = feats = np.flatnonzero(lo < hi)        # a constant feature never splits a node
        self.sizes = sizes = (hi[feats] + 1).astype(np.int64)
        self.S = int(sizes.sum())
        self.off = off = (np.cumsum(sizes) - sizes).astype(np.int64)
        self.F = len(feats)
        self.feat_of = np.repeat(feats, sizes)               # histogram position -> feature
        self.code_of = np.arange(self.S) - np.repeat(off, sizes)   # -> code
        self.seg_start = np.repeat(off, sizes)
        self.seg_end = self.seg_start + np.repeat(sizes, sizes)
        self.XK = XT[feats] * K + y[None, :]              # per feature (contiguous): code * K + class
        self.n_nodes = 0
        self.called = np.zeros(64, dtype=bool)            # per node: the splitter was asked to split it
        self.const = np.ones((64, d), dtype=bool)          # per node: its constant features (when called)
        self.children = np.full((64, 2), -1, dtype=np.int64)   # per node: left, right (-1: none)
        self.pending: dict = {}      # tied nodes waiting for the feature order

    def _new(self, m):
        i = self.n_nodes
        self.n_nodes += m
        if self.n_nodes > len(self.called):
            cap = 2 * self.n_nodes
            self.called = np.concatenate([self.called, np.zeros(cap - len(self.called), dtype=bool)])
            self.const = np.concatenate([self.const, np.ones((cap - len(self.const), self.d), dtype=bool)])
            self.children = np.concatenate([self.children, np.full((cap - len(self.children), 2), -1, np.int64)])
        return np.arange(i, i + m)

    def _hist(self, act, nid, m):
        """Class-weight histograms (nodes x codes x classes) and class totals of the rows ``act``
        in nodes ``nid`` (one ``bincount`` per feature: contiguous codes, a cache-sized output)."""
        K = self.K
        H = np.empty((m, self.S, K))
        if act is None:                                      # the root: every row, in order
            wa = self.w
            for j, (o, v) in enumerate(zip(self.off.tolist(), self.sizes.tolist())):
                H[0, o:o + v, :] = np.bincount(self.XK[j], weights=wa, minlength=v * K).reshape(v, K)
            return H, np.bincount(self.y, weights=wa, minlength=K).reshape(1, K)
        wa = self.w[act]
        for j, (o, v) in enumerate(zip(self.off.tolist(), self.sizes.tolist())):
            H[:, o:o + v, :] = np.bincount(nid * (v * K) + self.XK[j][act], weights=wa,
                                           minlength=m * v * K).reshape(m, v, K)
        T = np.bincount(nid * K + self.y[act], weights=wa, minlength=m * K).reshape(m, K)
        return H, T

    def run(self):
        n = self.n
        ids = self._new(1)
        act = np.arange(n)
        nid = np.zeros(n, dtype=np.int64)
        H, T = self._hist(None, nid, 1)
        self._expand(ids, act, nid, np.arange(len(self.Xt)), np.zeros(len(self.Xt), dtype=np.int64), H, T,
                     np.array([n]))
        if self.pending:
            self._walk()
        return self.pred

    def _threshold(self, present_k, s) -> float:
        """scikit-learn's threshold of the split after code position ``s``: the mid-point of the
        code and the next code present in the node (as ``Xf[p_prev] / 2.0 + Xf[p] / 2.0``)."""
        nxt = s + 1 + int(np.argmax(present_k[s + 1:]))
        return float(self.code_of[s]) / 2.0 + float(self.code_of[nxt]) / 2.0

    def _split(self, ids, split, best_s, thr, act, nid, tact, tnid, H, T):
        """Send the rows of the nodes ``split`` (positions in ``ids``; feature position
        ``best_s``, threshold ``thr`` per node) to their children (the rows of other nodes are
        dropped) and grow the children."""
        m = len(ids)
        rank2 = np.full(m, -1, dtype=np.int64)
        rank2[split] = 2 * np.arange(len(split))           # per node: its left child's position
        jf = self.feat_of[best_s]                            # per node: the feature split
        if len(split) < m:
            keep = rank2[nid] >= 0
            act, nid = act[keep], nid[keep]
        child = rank2[nid] + (self.Xflat[jf[nid] * self.n + act] > thr[nid])
        if len(split) < m:
            tkeep = rank2[tnid] >= 0
            tact, tnid = tact[tkeep], tnid[tkeep]
        tchild = rank2[tnid] + (self.Xt[tact, jf[tnid]] > thr[tnid])
        n_split = len(split)
        rows = np.bincount(child, minlength=2 * n_split)
        small = 2 * np.arange(n_split) + (rows[1::2] < rows[0::2])   # count the smaller child,
        is_small = np.zeros(2 * n_split, dtype=bool)                 # the larger is parent - smaller
        is_small[small] = True
        sel = is_small[child]
        K = self.K
        asel, psel = act[sel], child[sel] // 2
        Ts = np.bincount(psel * K + self.y[asel], weights=self.w[asel], minlength=n_split * K).reshape(n_split, K)
        Tn = np.empty((2 * n_split, K))
        Tn[small], Tn[small ^ 1] = Ts, T[split] - Ts
        # a child that will be a leaf (as ``_expand`` decides) reads no histogram: a pair of leaves
        # needs none, so its rows are left out of the smaller children's histograms
        leaf = (rows < 2) | (Tn.sum(axis=1) < 2 * self.mwl) | ((Tn > 0).sum(axis=1) <= 1)
        need = ~(leaf[0::2] & leaf[1::2])
        if not need.all():
            keep = need[psel]
            asel, psel = asel[keep], psel[keep]
        Hs, _ = self._hist(asel, psel, n_split)
        Hn = np.empty((2 * n_split, self.S, K))
        Hn[small], Hn[small ^ 1] = Hs, H[split] - Hs
        new = self._new(2 * n_split)
        self.children[ids[split]] = new.reshape(n_split, 2)
        self._expand(new, act, child, tact, tchild, Hn, Tn, rows)

    def _expand(self, ids, act, nid, tact, tnid, H, T, rows):
        """Grow the nodes ``ids`` (their rows ``act`` with node positions ``nid``, test rows
        likewise, histograms ``H``, class totals ``T``, row counts ``rows``) level by level."""
        K, S, mwl = self.K, self.S, self.mwl
        m = len(ids)
        wn = T.sum(axis=1)
        leaf = (rows < 2) | (wn < 2 * mwl) | ((T > 0).sum(axis=1) <= 1)
        best_s = np.zeros(m, dtype=np.int64)
        tied = np.zeros(m, dtype=bool)
        called = np.flatnonzero(~leaf)
        if self.F and len(called):
            present = H.sum(axis=2) > 0
            n_codes = np.add.reduceat(present[called], self.off, axis=1)
            self.called[ids[called]] = True
            self.const[ids[called][:, None], self.feats[None, :]] = n_codes <= 1
            C = np.cumsum(H, axis=1)
            Cpad = np.concatenate([np.zeros((m, 1, K)), C], axis=1)
            L = C - Cpad[:, self.seg_start, :]              # left class counts of the split after code s
            pc = np.cumsum(present, axis=1)
            pcpad = np.concatenate([np.zeros((m, 1), dtype=pc.dtype), pc], axis=1)
            after = pcpad[:, self.seg_end] - pc             # present codes after s in its feature
            wl = L.sum(axis=2)
            wr = wn[:, None] - wl
            valid = present & (after > 0) & ~leaf[:, None] & (wl >= mwl) & (wr >= mwl)
            idx = np.flatnonzero(valid)
            full = np.full(m * S, -np.inf)
            if len(idx):
                node = idx // S
                Lv = L.reshape(-1, K)[idx]
                wlv, wrv = wl.ravel()[idx], wr.ravel()[idx]
                full[idx] = -wrv * _entropy_approx(T[node] - Lv, wrv) - wlv * _entropy_approx(Lv, wlv)
            full = full.reshape(m, S)
            best_s = np.argmax(full, axis=1)
            best = full[np.arange(m), best_s]
            leaf |= ~np.isfinite(best)
            split = np.flatnonzero(~leaf)
            tol = _TOL * (np.abs(best[split]) + 1.0)
            near = (full[split] >= (best[split] - tol)[:, None]).sum(axis=1) > 1
            for k in split[near]:                           # near ties: decided exactly
                pos = np.flatnonzero(full[k] >= best[k] - _TOL * (abs(best[k]) + 1.0))
                s, ties = _exact_choice(L[k, pos], T[k], float(wn[k]), self.feat_of, pos)
                if s is None:
                    tied[k] = True
                    self.pending[ids[k]] = [ties, L, k]
                else:
                    best_s[k] = s
            ok = np.flatnonzero(~leaf & ~tied)
            if len(ok):                                     # a leaf when improvement + EPSILON < 0
                Lb = L[ok, best_s[ok]]
                Rb = T[ok] - Lb
                wlb, wrb, wnb = Lb.sum(axis=1), Rb.sum(axis=1), wn[ok]
                imp = (wnb / self.W) * (_entropy_approx(T[ok], wnb) - wrb / wnb * _entropy_approx(Rb, wrb)
                                        - wlb / wnb * _entropy_approx(Lb, wlb))
                for i in np.flatnonzero(imp < _TOL):
                    if _improvement_exact(T[ok[i]], Lb[i], self.W) + _EPS < 0.0:
                        leaf[ok[i]] = True
        else:
            leaf[:] = True
        tleaf = leaf[tnid]                                  # test rows at a leaf: its heaviest class
        self.pred[tact[tleaf]] = np.argmax(T, axis=1)[tnid[tleaf]]
        for k in np.flatnonzero(tied):                      # set aside until the feature order is known
            ties, L, _ = self.pending[ids[k]]
            self.pending[ids[k]] = (ties, L[k].copy(), act[nid == k], tact[tnid == k], H[k], T[k], rows[k])
        split = np.flatnonzero(~leaf & ~tied)
        if len(split):
            later = present[split] & (np.arange(S)[None, :] > best_s[split][:, None])
            thr = np.zeros(m)                               # mid-point of the code and the next one present
            thr[split] = self.code_of[best_s[split]] / 2.0 + self.code_of[np.argmax(later, axis=1)] / 2.0
            self._split(ids, split, best_s, thr, act, nid, tact, tnid, H, T)

    def _visit(self, const, n_known, features, constant_features):
        """``node_split_best``'s feature draws at one node: the non-constant features in the
        order the splitter evaluates them, and its ``n_total_constants``."""
        d = self.d
        f_i, n_found, n_drawn, n_total, n_visited = d, 0, 0, n_known, 0
        st = self.state
        order = []
        while f_i > n_total and (n_visited < d or n_visited <= n_found + n_drawn):
            n_visited += 1
            if st == 0:
                st = 1
            st ^= (st << 13) & 0xFFFFFFFF                  # our_rand_r (xorshift32)
            st ^= st >> 17
            st ^= (st << 5) & 0xFFFFFFFF
            f_j = n_drawn + (st & _RAND_R_MAX) % (f_i - n_found - n_drawn)   # rand_int
            if f_j < n_known:
                features[n_drawn], features[f_j] = features[f_j], features[n_drawn]
                n_drawn += 1
                continue
            f_j += n_found
            if const[features[f_j]]:
                features[f_j], features[n_total] = features[n_total], features[f_j]
                n_found += 1
                n_total += 1
                continue
            f_i -= 1
            features[f_i], features[f_j] = features[f_j], features[f_i]
            order.append(features[f_i])
        self.state = st
        features[:n_known] = constant_features[:n_known]
        constant_features[n_known:n_known + n_found] = features[n_known:n_known + n_found]
        return order, n_total

    def _walk(self):
        """Replay the splitter's feature draws in its depth-first order (left child first) and
        decide every tied node when it is reached."""
        self.state = self.seed
        features = list(range(self.d))
        constant_features = [0] * self.d
        stack = [(0, 0)]
        while stack and self.pending:
            k, n_known = stack.pop()
            if not self.called[k]:
                continue
            order, n_total = self._visit(self.const[k].tolist(), n_known, features, constant_features)
            if k in self.pending:
                ties, Lk, act, tact, Hk, Tk, rows_k = self.pending.pop(k)
                f = next(f for f in order if f in ties)
                s = ties[f]
                if _improvement_exact(Tk, Lk[s], self.W) + _EPS < 0.0:
                    self.pred[tact] = int(np.argmax(Tk))
                else:
                    thr = np.array([self._threshold(Hk.sum(axis=1) > 0, s)])
                    self._split(np.array([k]), np.array([0]), np.array([s]), thr, act, np.zeros(len(act), dtype=np.int64), tact,
                                np.zeros(len(tact), dtype=np.int64), Hk[None], Tk[None])
            left, right = self.children[k].tolist()
            if left >= 0:
                stack.append((right, n_total))
                stack.append((left, n_total))


def _grow_predict(X: np.ndarray, y: np.ndarray, w: np.ndarray, Xt: np.ndarray, n_classes: int,
                  min_weight_fraction_leaf: float, random_state: int) -> np.ndarray | None:
    """The class index scikit-learn's entropy tree (``min_weight_fraction_leaf``,
    ``random_state``, other parameters at their defaults) trained on ``(X, y, w)`` predicts
    for every row of ``Xt``; None when the codes are too many for histograms (then ask
    scikit-learn).

    ``X``, ``Xt``: non-negative integer codes (rows x features, below 2**24 so that float32
    holds them exactly); ``y``: class indices below ``n_classes``; ``w``: positive integer
    weights (floats) summing below 2**53.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = np.array([[0, 1], [1, 1], [2, 1], [1, 1]]), np.array([0, 1, 1, 0])
    >>> w, Xt = np.array([3.0, 2.0, 1.0, 1.0]), np.array([[0, 0], [1, 0], [2, 5]])
    >>> _grow_predict(X, y, w, Xt, 2, 0.0, 0).tolist()
    [0, 1, 1]
    >>> clf = DecisionTreeClassifier(criterion="entropy", random_state=0)
    >>> clf.fit(X.astype(np.float32), y, sample_weight=w).predict(Xt.astype(np.float32)).tolist()
    [0, 1, 1]
    >>> _grow_predict(np.array([[0], [MAX_CODES]]), np.array([0, 1]), np.ones(2), Xt[:, :1], 2, 0.0, 0) is None
    True
    """
    seed = int(np.random.RandomState(random_state).randint(0, _RAND_R_MAX))
    g = _Grower(X, y, w, Xt, n_classes, min_weight_fraction_leaf, seed)
    if g.S > MAX_CODES:
        return None
    return g.run()
