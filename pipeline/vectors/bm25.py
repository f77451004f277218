"""BM25 as sparse vectors, with an English analyzer built in code (no NLTK data needed).

Terms are the stemmed words and the pairs of consecutive stemmed words (stop words removed first), so a question
that repeats a phrase of the evidence ("training records", "Kendall Tau") ranks the chunk holding that phrase above
chunks that only share its words. Measured on the 198 questions of tests/data/corpus_questions.jsonl (per-paper
filter, chunks): evidence page first 0.72 with words alone against 0.82 with word pairs (unseen house styles 0.64
against 0.79), top 5 0.94 against 0.97; with pairs, k1 0.9 and b 0.4 did best of the settings tried (docs/vectors.md).

Corpus statistics (document frequencies, document count, mean length) come from the chunks alone
(`STATS_FIELD`): chunks cover every page of a paper exactly once, while pages, sections and summaries repeat the same
text, so counting every encodable cell made each term's document frequency about three copies of the same evidence
and set the mean length by short cells (titles, captions), which penalised every chunk as long. Statistics of the
documents a chunk search ranks, measured (issue 31, per-paper chunk search, BM25 alone, evidence page first): 198
project questions 0.86 -> 0.88, 77 paraphrased tuning questions 0.68 -> 0.73 (docs/vectors.md).

Documents carry the term-frequency half of BM25 (saturated, length-normalised by the corpus mean length);
queries carry the IDF half, computed at query time from live corpus statistics. Inner product of the two is the
BM25 score, so adding papers changes IDF immediately without re-encoding anything. Only the mean length is baked
into document vectors; the index re-encodes a paper when that mean drifts past a tolerance.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from hashlib import blake2b

from pipeline.vectors.config import BM25_B, BM25_K1

# Common English function words (hand-written list; stemmed before comparison is not needed: we test raw tokens).
STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below between both
    but by can could did do does doing down during each few for from further had has have having he her here hers herself
    him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their theirs them themselves then
    there these they this those through to too under until up very was we were what when where which while who whom why
    will with would you your yours yourself yourselves s t d ll m o re ve y ain isn aren wasn weren hasn haven hadn doesn
    don didn won wouldn shan shouldn mustn needn couldn mightn""".split()
)

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)  # letters/digits; punctuation and underscores split tokens


_ENGLISH_ONLY = "_paperbase_snowball"  # snowballstemmer's folder, imported as a package without its __init__


@lru_cache(maxsize=1)
def _stemmer():
    """snowballstemmer's English stemmer, without the package's other 34 languages. Why: its `__init__` imports every
    language's generated module unless PyStemmer is installed (it is not a dependency here), about 0.13 s of a cold
    `paperbase search`'s 1.6 s, for one language. The English module is loaded from the package's own folder under a
    private package name, so its relative imports (`basestemmer`, `among`) resolve there; same code, same stems."""
    import sys

    if "snowballstemmer" in sys.modules:  # imported anyway by someone else: nothing to save
        return sys.modules["snowballstemmer"].stemmer("english")
    import importlib
    import importlib.util
    import types

    if _ENGLISH_ONLY not in sys.modules:
        spec = importlib.util.find_spec("snowballstemmer")  # finds the folder; runs nothing
        package = types.ModuleType(_ENGLISH_ONLY)
        package.__path__ = list(spec.submodule_search_locations)
        sys.modules[_ENGLISH_ONLY] = package
    return importlib.import_module(f"{_ENGLISH_ONLY}.english_stemmer").EnglishStemmer()


@lru_cache(maxsize=200_000)
def _stem(token: str) -> str:
    # The pure-Python stemmer is the hot spot; a paper's vocabulary repeats, so cache per distinct token.
    return _stemmer().stemWord(token)


def analyze(text: str) -> list[str]:
    """Tokenize, lowercase, drop stop words, Snowball-stem."""
    return [_stem(t) for t in _TOKEN.findall(text.lower()) if t not in STOP_WORDS]


# Milvus sparse indices are uint32 below 2**32-1. Terms hash below EMPTY_DIM; EMPTY_DIM marks a document with no
# terms left after analysis (e.g. "—"), because Milvus rejects all-zero sparse rows and every non-blank cell must
# still have exactly one vector. No query ever carries EMPTY_DIM, so such documents never score.
EMPTY_DIM = 2**32 - 2


def term_id(term: str) -> int:
    """Stable 32-bit dimension for a stemmed term."""
    return int.from_bytes(blake2b(term.encode("utf-8"), digest_size=4).digest(), "big") % EMPTY_DIM


ANALYZER = "words+pairs"  # part of every BM25 vector's ledger fingerprint: changing the terms re-encodes
STATS_FIELD = ("chunks", "text_content")  # the cells BM25 statistics are taken from (module docstring)
STATISTICS = "chunks"  # part of the fingerprint too: statistics from other cells would re-encode


def terms(text: str, drop: frozenset[str] = frozenset()) -> list[str]:
    """The analysed words followed by each pair of consecutive ones (joined by a space, which no word contains);
    words in `drop` are left out first (their neighbours then pair up)."""
    words = [w for w in analyze(text) if w not in drop] if drop else analyze(text)
    return words + [f"{a} {b}" for a, b in zip(words, words[1:])]


def term_counts(text: str, drop: frozenset[str] = frozenset()) -> Counter[int]:
    return Counter(term_id(t) for t in terms(text, drop))


def name_words(names: Iterable[str]) -> frozenset[str]:
    """The analysed words of people's names (a paper's authors): what a query that names them loses when the search
    is pinned to that paper (search.py)."""
    return frozenset(w for n in names for w in analyze(n or ""))


def without_title(query: str, title: str | None) -> str:
    """The query with the pinned paper's own title phrases taken out: every run of two or more consecutive query words
    (stop words between them allowed) that follow each other in the title, from the run's first word to its last.
    A question that names its paper by title ("... in 'Teaching Small Language Models to Reason'", "the
    auto-encoding variational Bayes experiments") points at the title block and at every passage that repeats the
    title's words rather than at the passage asked about; the filter already chose the paper. One title word alone
    is kept (it may be the very term asked about), and a query that is nothing but its title is left whole."""
    analysed = analyze(title or "")
    pairs = set(zip(analysed, analysed[1:]))
    if not pairs:
        return query
    words = [(m.start(), m.end(), _stem(m.group().lower())) for m in _TOKEN.finditer(query)
             if m.group().lower() not in STOP_WORDS]
    spans, i = [], 0
    while i < len(words):
        j = i
        while j + 1 < len(words) and (words[j][2], words[j + 1][2]) in pairs:
            j += 1
        if j > i:
            spans.append((words[i][0], words[j][1], j - i + 1))
        i = j + 1
    if not spans or sum(n for _, _, n in spans) == len(words):
        return query
    out, last = [], 0
    for start, end, _ in spans:
        out.append(query[last:start])
        last = end
    out.append(query[last:])
    return re.sub(r"\s{2,}", " ", "".join(out)).strip()


def doc_vector(counts: Mapping[int, int], avgdl: float, k1: float = BM25_K1, b: float = BM25_B) -> dict[int, float]:
    """The TF half of BM25 for one document."""
    if not counts:
        return {EMPTY_DIM: 1e-6}
    length = sum(counts.values())
    norm = k1 * (1 - b + b * length / max(avgdl, 1e-9))
    return {t: tf * (k1 + 1) / (tf + norm) for t, tf in counts.items()}


def idf(df: int, n_docs: int) -> float:
    """Lucene's non-negative BM25 IDF."""
    return math.log(1 + (n_docs - df + 0.5) / (df + 0.5))


def query_vector(text: str, df: Mapping[int, int], n_docs: int, drop: frozenset[str] = frozenset()) -> dict[int, float]:
    """The IDF half: one weight per distinct query term that occurs in the corpus (repeats add weight); words in
    `drop` are left out."""
    counts = term_counts(text, drop)
    return {t: c * idf(df[t], n_docs) for t, c in counts.items() if df.get(t)}


def corpus_stats(docs: Iterable[Counter[int]]) -> tuple[int, int, Counter[int]]:
    """(number of documents, total length, document frequency per term) of a set of analysed documents."""
    n = total = 0
    df: Counter[int] = Counter()
    for counts in docs:
        n += 1
        total += sum(counts.values())
        df.update(counts.keys())
    return n, total, df
