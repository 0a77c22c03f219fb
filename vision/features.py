"""Local features and the fast approximate index used to find cards.

Every reference card is stored as a small budget of ORB features (binary 256-bit descriptors and
their positions on the upright 336 x 468 reference card). To look them up quickly the gallery's
descriptors are clustered into "visual words" (binary k-majority, a k-means for bit strings); a
photo's descriptor is compared only with the gallery descriptors filed under its few nearest
words instead of all of them (about 1/300 of the work of a brute-force search, measured in
``tablekeeper bench vision``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

import vision.tuning as tuning
from vision.geometry import CARD_H, CARD_W
from vision.photometry import stretch


def card_orb(n_features: int, levels: int = tuning.CARD_LEVELS) -> cv2.ORB:
    """The ORB detector for upright canonical card images (references and rectified cards)."""
    return cv2.ORB.create(
        nfeatures=n_features,
        scaleFactor=tuning.CARD_SCALE_FACTOR,
        nlevels=levels,
        edgeThreshold=tuning.ORB_EDGE_THRESHOLD,
        patchSize=tuning.ORB_PATCH_SIZE,
        fastThreshold=tuning.CARD_FAST_THRESHOLD,
    )


def photo_orb(
    n_features: int,
    fast_threshold: int = tuning.PHOTO_FAST_THRESHOLD,
    levels: int = tuning.PHOTO_LEVELS,
) -> cv2.ORB:
    """The ORB detector for whole photos: more pyramid levels, cards may be any size."""
    return cv2.ORB.create(
        nfeatures=n_features,
        scaleFactor=tuning.PHOTO_SCALE_FACTOR,
        nlevels=levels,
        edgeThreshold=tuning.ORB_EDGE_THRESHOLD,
        patchSize=tuning.ORB_PATCH_SIZE,
        fastThreshold=fast_threshold,
    )


def photo_features(
    gray: np.ndarray,
    n_features: int,
    mask: np.ndarray | None = None,
    fast_threshold: int = tuning.PHOTO_FAST_THRESHOLD,
    levels: int = tuning.PHOTO_LEVELS,
) -> tuple[np.ndarray, np.ndarray]:
    """(points, descriptors) of a whole photo: the ``n_features`` strongest ORB corners.

    (Spreading the budget over a grid, so a busy table cannot take most of it, was measured
    and did not find more cards: the cards' own corners are strong enough.)"""
    points, descriptors, _ = ranked_photo_features(gray, n_features, mask, fast_threshold, levels)
    return points, descriptors


def ranked_photo_features(
    gray: np.ndarray,
    n_features: int,
    mask: np.ndarray | None = None,
    fast_threshold: int = tuning.PHOTO_FAST_THRESHOLD,
    levels: int = tuning.PHOTO_LEVELS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`photo_features` and each feature's corner strength (ORB's response, float32):
    a card's strongest few hundred are what a rectified card's own ORB pass would keep."""
    keypoints, descriptors = photo_orb(n_features, fast_threshold, levels).detectAndCompute(
        gray, mask
    )
    if descriptors is None or not keypoints:
        return np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8), np.zeros(0, np.float32)
    strength = np.fromiter((k.response for k in keypoints), np.float32, len(keypoints))
    return _positions(keypoints), descriptors, strength


def _positions(keypoints: Sequence[cv2.KeyPoint]) -> np.ndarray:
    """Keypoint positions (float32 N x 2), converted by OpenCV: a Python loop over a photo's
    4,000 keypoints took 1.6 ms."""
    return np.asarray(cv2.KeyPoint.convert(keypoints), np.float32).reshape(-1, 2)


def to_gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def card_features(
    card: np.ndarray, n_features: int, levels: int = tuning.CARD_LEVELS
) -> tuple[np.ndarray, np.ndarray]:
    """(points float32 N x 2, descriptors uint8 N x 32) of an upright canonical card image."""
    gray = to_gray(card)
    if gray.shape[:2] != (CARD_H, CARD_W):
        gray = cv2.resize(gray, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    gray = stretch(gray)
    keypoints, descriptors = card_orb(n_features, levels).detectAndCompute(gray, None)
    if descriptors is None or not keypoints:
        return np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8)
    return _positions(keypoints), descriptors


_NO_WORD = np.int32(1 << 20)  # an empty candidate slot: farther than any Hamming distance
# numpy 1.x (Raspberry Pi OS Bookworm pins it) has no bitwise_count: there each row's bits are
# its Hamming distance from a zero row, which OpenCV counts.
_ZERO_ROW = np.zeros((1, 32), np.uint8)


# numpy 1's ``take`` of a flat array is ~3x slower than indexing it with the same integers
# (70,000 picks: 224 vs 68 us, numpy 1.24); numpy 2's is the faster of the two (46 vs 68 us).
_TAKE_IS_FAST = hasattr(np, "bitwise_count")  # numpy >= 2


def pick(values: np.ndarray, at: np.ndarray) -> np.ndarray:
    """``values[at]`` of a flat array by whichever of numpy's two ways is faster on this
    numpy (the same array either way)."""
    return values.take(at) if _TAKE_IS_FAST else values[at]


def hamming_at(a: np.ndarray, rows_a: np.ndarray, b: np.ndarray, rows_b: np.ndarray) -> np.ndarray:
    """Hamming distances between ``a[rows_a]`` and ``b[rows_b]``, pair by pair (32-byte
    descriptors). Rows are gathered as four 64-bit words, not 32 bytes: numpy's fancy indexing
    of byte rows cost ~6x the distances themselves for a photo's half a million pairs."""
    words_a = np.ascontiguousarray(a).view(np.uint64)
    words_b = np.ascontiguousarray(b).view(np.uint64)
    x = np.take(words_a, rows_a, axis=0)
    x ^= np.take(words_b, rows_b, axis=0)
    return _bit_counts(x)


def hamming_runs(
    a: np.ndarray, counts: np.ndarray, b: np.ndarray, rows_b: np.ndarray
) -> np.ndarray:
    """:func:`hamming_at` of pairs grouped by ``a``'s row: row ``i`` of ``a`` against the next
    ``counts[i]`` rows of ``b[rows_b]``. Each row of ``a`` is repeated, not gathered: for a
    photo's ~half a million pairs 1.1 vs 1.5 ms on numpy 1.24 (0.35 vs 0.5 ms on numpy 2)."""
    words_a = np.ascontiguousarray(a).view(np.uint64)
    words_b = np.ascontiguousarray(b).view(np.uint64)
    x = np.repeat(words_a, counts, axis=0)
    x ^= np.take(words_b, rows_b, axis=0)
    return _bit_counts(x)


def _bit_counts(x: np.ndarray) -> np.ndarray:
    """Set bits per row of an N x 4 stack of 64-bit words (int32). numpy 2 counts each word
    and the columns are added one by one (numpy's sum along a short axis is several times
    slower); numpy 1 has no bit count, and OpenCV's distance of each row from a zero row took
    half the time of a 16-bit table (8.5 vs 15.4 ms for 410,000 rows, numpy 1.24 and
    OpenCV 4.11)."""
    if hasattr(np, "bitwise_count"):  # numpy >= 2
        counts = np.bitwise_count(x)
        return counts[:, 0].astype(np.int32) + counts[:, 1] + counts[:, 2] + counts[:, 3]
    if len(x) == 0:  # OpenCV returns no array at all for no rows
        return np.zeros(0, np.int32)
    rows = np.ascontiguousarray(x).view(np.uint8).reshape(len(x), 32)
    bits, _ = cv2.batchDistance(rows, _ZERO_ROW, cv2.CV_32S, normType=cv2.NORM_HAMMING, K=1)
    return bits.ravel()


def build_vocabulary(
    descriptors: np.ndarray, n_words: int, iterations: int = 3, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Cluster binary descriptors into ``n_words`` words; returns (words, label per descriptor)."""
    n = len(descriptors)
    n_words = max(1, min(n_words, n))
    rng = np.random.default_rng(seed)
    words = descriptors[rng.choice(n, n_words, replace=False)].copy()
    matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
    labels = np.zeros(n, np.int32)
    bits = np.unpackbits(descriptors, axis=1)
    for step in range(iterations + 1):
        labels = np.array([m.trainIdx for m in matcher.match(descriptors, words)], np.int32)
        if step == iterations:
            break
        order = np.argsort(labels, kind="stable")
        sorted_labels = labels[order]
        starts = np.searchsorted(sorted_labels, np.arange(n_words))
        counts = np.bincount(labels, minlength=n_words)
        filled = counts > 0
        sums = np.add.reduceat(bits[order].astype(np.int32), starts[filled], axis=0)
        majority = (2 * sums > counts[filled][:, None]).astype(np.uint8)
        words[filled] = np.packbits(majority, axis=1)
    return words, labels


@dataclass
class WordIndex:
    """Inverted file: gallery descriptor ids grouped by visual word, with a two-level
    vocabulary (a few dozen coarse words, each split into fine words) so that finding a photo
    descriptor's nearest words costs ~100 comparisons instead of thousands."""

    words: np.ndarray  # W x 32 uint8, fine words grouped by coarse word
    order: np.ndarray  # descriptor ids sorted by word
    starts: np.ndarray  # W + 1 offsets into ``order``
    coarse: np.ndarray  # C x 32 uint8 coarse words
    coarse_starts: np.ndarray  # C + 1 offsets into ``words``

    @classmethod
    def empty(cls) -> WordIndex:
        return cls(
            np.zeros((0, 32), np.uint8),
            np.zeros(0, np.int32),
            np.zeros(1, np.int32),
            np.zeros((0, 32), np.uint8),
            np.zeros(1, np.int32),
        )

    @classmethod
    def build(cls, descriptors: np.ndarray) -> WordIndex:
        if len(descriptors) == 0:
            return cls.empty()
        # About 60 descriptors per fine word: enough to keep the word look-up cheap, few
        # enough that each probe compares a photo descriptor with only a handful of references.
        per_coarse = tuning.INDEX_DESCRIPTORS_PER_COARSE
        n_coarse = int(
            np.clip(round(np.sqrt(len(descriptors) / per_coarse)), 1, tuning.INDEX_MAX_COARSE)
        )
        coarse_rounds, fine_rounds = tuning.INDEX_ITERATIONS
        coarse, coarse_labels = build_vocabulary(descriptors, n_coarse, coarse_rounds)
        n_coarse = len(coarse)
        fine_words: list[np.ndarray] = []
        labels = np.zeros(len(descriptors), np.int64)
        coarse_starts = [0]
        for c in range(n_coarse):
            members = np.flatnonzero(coarse_labels == c)
            if len(members) == 0:
                coarse_starts.append(coarse_starts[-1])
                continue
            n_fine = int(
                np.clip(len(members) // tuning.DESCRIPTORS_PER_WORD, 1, tuning.INDEX_MAX_FINE)
            )
            words, sub = build_vocabulary(
                descriptors[members], n_fine, iterations=fine_rounds, seed=c
            )
            labels[members] = coarse_starts[-1] + sub
            fine_words.append(words)
            coarse_starts.append(coarse_starts[-1] + len(words))
        all_words = np.vstack(fine_words)
        order = np.argsort(labels, kind="stable").astype(np.int32)
        starts = np.searchsorted(labels[order], np.arange(len(all_words) + 1)).astype(np.int32)
        return cls(all_words, order, starts, coarse, np.array(coarse_starts, np.int32))

    def nearest_words(self, query: np.ndarray, probes: int) -> tuple[np.ndarray, np.ndarray]:
        """(query ids, word ids): each query's ``probes`` nearest fine words among the fine
        words of its ``COARSE_PROBES`` nearest coarse words; grouped by query id, ascending."""
        k_coarse = min(tuning.COARSE_PROBES, len(self.coarse))
        _, top = cv2.batchDistance(
            query, self.coarse, cv2.CV_32S, normType=cv2.NORM_HAMMING, K=k_coarse
        )
        # The queries of each coarse word, ascending: one stable sort, not a scan per word.
        flat = top.ravel()
        by_coarse = np.argsort(flat, kind="stable")
        query_of = by_coarse // k_coarse
        bounds = np.searchsorted(flat[by_coarse], np.arange(len(self.coarse) + 1))
        # Each query's candidate words side by side in one row, its coarse words in ascending
        # order (a tie in distance goes to the lower word), then one stable sort per row. The
        # queries are gathered in coarse-word order once and OpenCV writes each coarse word's
        # nearest fine words straight into one table in that order, put in place by one flat
        # index at the end: not a gather, two scatters and an offset per coarse word (4 numpy
        # calls x 56 coarse words, twice a photo: ~1 ms of a photo's find on numpy 1.24).
        rank = np.argsort(np.argsort(top, axis=1, kind="stable"), axis=1, kind="stable")
        width = k_coarse * probes
        slot_of = query_of * width + rank.ravel()[by_coarse] * probes
        in_order = np.take(query, query_of, axis=0)
        dist_sorted = np.full((len(query_of), probes), _NO_WORD, np.int32)
        word_sorted = np.zeros((len(query_of), probes), np.int32)
        for c in range(len(self.coarse)):
            lo, hi = int(self.coarse_starts[c]), int(self.coarse_starts[c + 1])
            a, b = int(bounds[c]), int(bounds[c + 1])
            if hi <= lo or a == b:
                continue
            k = min(probes, hi - lo)
            if k == probes:  # written in place
                cv2.batchDistance(
                    in_order[a:b],
                    self.words[lo:hi],
                    cv2.CV_32S,
                    dist=dist_sorted[a:b],
                    nidx=word_sorted[a:b],
                    normType=cv2.NORM_HAMMING,
                    K=k,
                )
            else:  # a coarse word of fewer fine words than probes: its other slots stay empty
                dist, idx = cv2.batchDistance(
                    in_order[a:b], self.words[lo:hi], cv2.CV_32S, normType=cv2.NORM_HAMMING, K=k
                )
                dist_sorted[a:b, :k] = dist
                word_sorted[a:b, :k] = idx
        word_sorted += np.repeat(self.coarse_starts[:-1], np.diff(bounds))[:, None]
        at = (slot_of[:, None] + np.arange(probes)).ravel()
        dist_flat = np.full(len(query) * width, _NO_WORD, np.int32)
        word_flat = np.zeros(len(query) * width, np.int32)
        dist_flat[at] = dist_sorted.ravel()
        word_flat[at] = word_sorted.ravel()
        # Each row's ``probes`` nearest in a stable order: each distance carries its place in
        # the row in its low bits, so a plain sort of the row is the stable sort by distance
        # (0.3 vs 0.55 ms for 4,000 rows of 9 on numpy 1.24 and 2, with the gathers it spares).
        place_bits = int(width - 1).bit_length()
        key = dist_flat.reshape(len(query), width) << place_bits
        key |= np.arange(width, dtype=np.int32)
        key.sort(axis=1)
        nearest = key[:, :probes]
        found = nearest < (_NO_WORD << place_bits)
        rows_out, _ = np.nonzero(found)
        nearest &= (1 << place_bits) - 1
        nearest += (np.arange(len(query), dtype=np.int32) * width)[:, None]
        words = word_flat[nearest[found]]
        return rows_out.astype(np.int64), words.astype(np.int64)

    def candidate_runs(
        self, query: np.ndarray, probes: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each query descriptor, the gallery descriptors under its ``probes`` nearest
        words: (query ids, slots, how many each query descriptor has), the pairs grouped by
        query id in ascending order (one run each, for :func:`hamming_runs`). A slot is a
        gallery descriptor's place in :attr:`order` (``order[slot]`` is its id; the gallery's
        ``by_word`` arrays are in that order, so a word's candidates are neighbours)."""
        if len(query) == 0 or len(self.words) == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(len(query), np.int64)
        query_ids, word_ids = self.nearest_words(query, probes)
        first = self.starts[word_ids].astype(np.int64)
        lengths = self.starts[word_ids + 1] - first
        per_query = np.bincount(query_ids, weights=lengths, minlength=len(query)).astype(np.int64)
        return repeat_runs(query_ids, lengths), run_members(first, lengths), per_query


def run_members(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Every index of the runs ``[start, start + length)``, run after run, as one int64 array."""
    return _runs(starts, lengths, 1)


# Below this many values numpy 1's own ``np.repeat`` is the faster (~2 ns a value, against
# ~0.8 ns and ~10 us to start for :func:`_runs`: 17 vs 22 us for 6,750 values, 0.97 vs 0.39 ms
# for 480,000; numpy 1.24).
_SHORT_REPEAT = 8_000


def repeat_runs(values: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``np.repeat(values, lengths)`` of integers (of ``values``' type): by numpy 2's own
    repeat (0.17 vs 0.30 ms by :func:`_runs` for a photo's 12,000 runs of candidates, 480,000
    values; 0.05 vs 0.28 ms for its 4,000 best names), by numpy 1's for a short one, else by one
    running sum (:func:`_runs`). The type is kept: numpy compares int32 with int64 at ~3x the
    cost of two int32 arrays (0.17 vs 0.05 ms for 480,000)."""
    if _TAKE_IS_FAST or int(lengths.sum()) < _SHORT_REPEAT:
        return np.repeat(values, lengths)
    return _runs(values, lengths, 0, values.dtype)


def _runs(
    first: np.ndarray, lengths: np.ndarray, step: int, dtype: np.dtype | type = np.int64
) -> np.ndarray:
    """Runs of ``lengths``, each from its ``first`` value on, ``step`` apart within a run, made
    by one running sum: each run's first place holds the jump from the end of the run before,
    every other place ``step``. ``np.repeat`` was the cost of a photo's find and of every
    naming: for the ~12,000 runs (480,000 candidates) of a photo's find it took 1.3 ms on
    numpy 1.24 and 0.2 ms on numpy 2; a run of members took 2.4 ms / 1.4 ms by a repeat plus a
    range, 0.5 ms / 0.4 ms this way."""
    lengths = lengths.astype(np.int64, copy=False)
    first = first.astype(np.int64, copy=False)
    if not lengths.all():  # runs of no length would share their place with the next run
        keep = lengths > 0
        first, lengths = first[keep], lengths[keep]
    if len(lengths) == 0:
        return np.zeros(0, dtype)
    out = np.full(int(lengths.sum()), step, dtype)
    out[0] = first[0]
    out[np.cumsum(lengths[:-1])] = first[1:] - first[:-1] - step * (lengths[:-1] - 1)
    return np.cumsum(out, out=out)


def area_shrink(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` (uint8) shrunk to ``size`` (w, h) by area averaging, as ``cv2.INTER_AREA`` does.

    A card's 336 x 468 down to a signature's 24 x 33 is 14 columns to one but 14.18 rows: OpenCV
    takes its slow general path for a scale that is not a whole number both ways (0.43 ms a
    card on either stack, most of a signature's cost; a photo makes ~5-7, one per card the
    find step fits). When the width divides evenly the columns are averaged first by the
    whole-number path, in float so nothing is rounded in between, and then the rows: 0.25 ms.
    The same averages, rounded once at the end; their float sums are added in another order,
    so a pixel whose average lies within a rounding error of a half may come out one grey
    level apart (seed 2026's 277 family cards rectified at their true corners: 30 with such a
    pixel on the default stack, 22 on the Pi's; never more than one level)."""
    width, height = size
    rows, columns = image.shape[:2]
    if image.dtype != np.uint8 or columns % width or columns == width or rows < height:
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    by_columns = cv2.resize(image.astype(np.float32), (width, rows), interpolation=cv2.INTER_AREA)
    shrunk = cv2.resize(by_columns, size, interpolation=cv2.INTER_AREA)
    return np.rint(shrunk).astype(np.uint8)  # averages of grey levels: already 0-255


def prepare_signatures() -> None:
    """Have OpenCV build its Lab tables now. It builds them on a run's first conversion to Lab,
    and a whole-card signature (:func:`global_descriptor`) makes one for every card a photo
    holds, so the first photo of a run paid for them: 34 ms on OpenCV 5.1, 89 ms on 4.11 (the
    Pi's library stack on this PC), against ~1 ms a signature after. One pixel is enough."""
    cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2LAB)


def global_descriptor(card: np.ndarray) -> np.ndarray:
    """A compact whole-card signature (float32, unit length) of an upright card image.

    A blurred low-resolution luminance layout plus a coarse colour layout: cheap to compare
    against every reference (one matrix product), robust to small rectification errors, used
    only to shortlist references for the feature check.
    """
    small = area_shrink(card, tuning.SIGNATURE_SIZE)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    lum = cv2.GaussianBlur(lab[..., 0], (3, 3), 0)[1:-1, 1:-1]
    lum = lum - lum.mean()
    lum /= float(np.linalg.norm(lum)) + 1e-6
    chroma = (
        cv2.resize(lab[..., 1:], tuning.SIGNATURE_CHROMA_SIZE, interpolation=cv2.INTER_AREA) - 128.0
    )
    chroma /= float(np.linalg.norm(chroma)) + tuning.SIGNATURE_CHROMA_DAMPING
    out = np.concatenate([lum.ravel(), tuning.SIGNATURE_CHROMA_WEIGHT * chroma.ravel()])
    out = out.astype(np.float32)
    out /= float(np.linalg.norm(out)) + 1e-6
    return out
