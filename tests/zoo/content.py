"""The one content model every zoo paper is typeset from: front matter, a section tree, floats, equations, references.

Everything here is plain data; `styles.py` decides how each class prints it and `generate.py` writes the truth from it.
Text is ASCII prose (no LaTeX specials) so the same string is both the LaTeX input and the printed truth; names carry
accents on purpose (the author matcher must be tolerant to them). Body text never repeats a running-header string, so
any header text found in a parsed view is a leak, not a coincidence.
"""
from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, field

TITLE = "Learning Sparse Routing for Efficient Long Document Classification"
SHORT_TITLE = "Sparse Routing for Long Documents"


@dataclass(frozen=True)
class Author:
    first: str
    last: str
    affil: int  # index into AFFILIATIONS
    email: str
    membership: str = ""  # IEEE grade printed after the name ("Senior Member, IEEE")

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"


AUTHORS = [
    Author("Léa", "Moreau", 0, "lea.moreau@inria.example.org", "Member, IEEE"),
    Author("Jonas", "Østergaard", 1, "jost@dtu.example.dk", "Senior Member, IEEE"),
    Author("Priya", "Raghunathan", 0, "priya.r@inria.example.org"),
    Author("Daniel K.", "Okafor", 2, "dokafor@uct.example.za", "Fellow, IEEE"),
]
AFFILIATIONS = [
    ("Inria Saclay", "Palaiseau", "France"),
    ("Department of Applied Mathematics and Computer Science, Technical University of Denmark", "Kongens Lyngby", "Denmark"),
    ("Department of Statistical Sciences, University of Cape Town", "Cape Town", "South Africa"),
]

ABSTRACT = (
    "Transformer encoders scale quadratically with the length of their input, which makes the classification of long "
    "documents such as contracts, clinical notes and scientific articles expensive. We propose a routing layer that "
    "learns, for every token, a small set of other tokens worth attending to, and we train it jointly with the "
    "classifier through a relaxed top-k operator. The resulting encoder keeps the accuracy of dense attention on four "
    "benchmarks while using a third of its memory and half of its inference time on inputs of sixteen thousand tokens. "
    "An analysis of the learned routes shows that they follow the discourse structure of the documents rather than "
    "their surface position."
)
KEYWORDS = ["long documents", "sparse attention", "text classification", "efficient transformers"]


@dataclass
class Float:
    kind: str  # "table" | "figure"
    key: str  # LaTeX label
    caption: str
    wide: bool = False  # spans both columns in two-column classes
    rows: list[list[str]] = field(default_factory=list)  # tables: first row is the header
    plot: str = "bars"  # figures: "bars" | "lines" | "boxes"


@dataclass
class Equation:
    key: str
    latex: str  # body of an `equation` environment


@dataclass
class Section:
    title: str
    level: int  # 1 section, 2 subsection, 3 subsubsection
    blocks: list = field(default_factory=list)  # str paragraphs, Float, Equation
    numbered: bool = True
    children: list["Section"] = field(default_factory=list)


TABLES = {
    "datasets": Float("table", "tab:datasets", "Statistics of the four benchmarks used in our experiments", rows=[
        ["Dataset", "Docs", "Classes", "Mean length", "Max length"],
        ["Contracts", "21,400", "12", "6,210", "31,002"],
        ["ClinNotes", "48,950", "19", "3,884", "16,540"],
        ["ArxivTopics", "33,388", "11", "9,102", "65,300"],
        ["LegalCases", "11,057", "8", "12,775", "88,216"],
    ]),
    "main": Float("table", "tab:main", "Accuracy and cost of all encoders on the four benchmarks at a budget of sixteen "
                  "thousand tokens", wide=True, rows=[
        ["Model", "Contracts", "ClinNotes", "ArxivTopics", "LegalCases", "Memory (GB)", "Time (ms)"],
        ["Dense attention", "88.1", "71.4", "86.9", "64.2", "38.5", "412"],
        ["Sliding window", "85.7", "69.8", "84.1", "61.0", "11.2", "151"],
        ["Global tokens", "86.9", "70.2", "85.6", "62.3", "12.8", "173"],
        ["Hashing buckets", "86.2", "69.5", "85.0", "61.8", "14.1", "198"],
        ["Routing (ours)", "88.4", "71.9", "87.2", "64.9", "12.4", "204"],
    ]),
    "ablation": Float("table", "tab:ablation", "Ablation of the router on the validation split of ClinNotes", rows=[
        ["Variant", "Accuracy", "Memory"],
        ["Full model", "72.3", "12.4"],
        ["Without load balancing", "70.8", "12.4"],
        ["Hard top-k", "69.9", "12.1"],
        ["Random routes", "66.4", "12.4"],
    ]),
}
FIGURES = {
    "overview": Float("figure", "fig:overview", "Overview of the routing layer: each token scores candidate tokens and "
                      "attends only to the selected ones", plot="boxes"),
    "scaling": Float("figure", "fig:scaling", "Peak memory and latency as a function of input length for dense "
                     "attention and for the routing encoder", wide=True, plot="lines"),
    "routes": Float("figure", "fig:routes", "Share of routes that stay within the same discourse unit, per layer",
                    plot="bars"),
}
EQUATIONS = {
    "attn": Equation("eq:attn", r"h_i = \sum_{j \in R(i)} \frac{\exp(q_i^\top k_j)}{\sum_{l \in R(i)} \exp(q_i^\top k_l)} v_j"),
    "route": Equation("eq:route", r"R(i) = \operatorname{top-}k_{j} \left( s_{ij} \right), \qquad s_{ij} = w^\top \tanh(W_r [x_i ; x_j])"),
    "relax": Equation("eq:relax", r"p_{ij} = \frac{\exp(s_{ij} / \tau)}{\sum_{l} \exp(s_{il} / \tau)}"),
    "balance": Equation("eq:balance", r"\mathcal{L}_{\mathrm{bal}} = \lambda \sum_{j=1}^{n} \Big( \frac{1}{n} \sum_{i=1}^{n} p_{ij} - \frac{k}{n} \Big)^2"),
    "cost": Equation("eq:cost", r"C(n) = O(n k d) + O(n m d), \qquad m \ll n"),
}

_SENTENCES = [
    "Long documents are common in practice, yet most text classifiers truncate them to a few hundred tokens.",
    "Truncation discards evidence that often sits far from the beginning of a document.",
    "Dense self-attention compares every pair of tokens, so its memory grows with the square of the input length.",
    "Several families of efficient encoders restrict attention to fixed patterns such as local windows or strided blocks.",
    "Fixed patterns are cheap but ignore the content of the document when they decide which tokens may interact.",
    "Content-based methods cluster tokens by hashing their representations and attend within each cluster.",
    "Hashing is fast, although its buckets are not trained for the downstream objective.",
    "Our router instead scores candidate tokens with a small feed-forward network and keeps the best of them.",
    "The selection is relaxed during training so that gradients reach the scoring network.",
    "At inference time the relaxation is replaced by an exact selection, which keeps the cost predictable.",
    "We share the router across attention heads, which halves its parameter count without a loss in accuracy.",
    "Candidate tokens are drawn from a coarse summary of the document, computed once per layer.",
    "The summary is built by pooling consecutive blocks of sixty-four tokens.",
    "Each benchmark comes with an official split into training, validation and test documents.",
    "We tokenize all documents with the same subword vocabulary of thirty-two thousand entries.",
    "All encoders have twelve layers, a hidden size of seven hundred sixty-eight and twelve attention heads.",
    "We train every model for ten epochs with a batch size of thirty-two documents and a linear warm-up.",
    "Learning rates were tuned on the validation split of each benchmark from a small grid.",
    "Results are averaged over five random seeds, and the standard deviation never exceeds half a point.",
    "The routing encoder matches dense attention on every benchmark and exceeds it on two of them.",
    "Its memory footprint is close to that of the sliding window baseline, the cheapest encoder we compare with.",
    "Latency grows almost linearly with the input length once the documents exceed four thousand tokens.",
    "Removing the balancing term lets a few popular tokens receive most of the routes, which hurts accuracy.",
    "Random routes of the same budget lose almost six points, so the learned scores matter.",
    "Most routes connect tokens of the same paragraph in the lower layers and tokens of related sections higher up.",
    "This pattern suggests that the router recovers part of the discourse structure without supervision.",
    "Documents with many short sections benefit the most from routing, whereas dense prose benefits the least.",
    "A limitation of our study is that all four benchmarks are in English.",
    "We also did not evaluate generation tasks, where the routes would have to respect causality.",
    "Future work will combine routing with retrieval over collections of documents.",
    "Prior work on hierarchical encoders splits documents into segments and encodes each one separately.",
    "Segment encoders lose the interactions between segments unless a second encoder is stacked on top.",
    "Memory-augmented models keep a cache of past representations and read from it with attention.",
    "Our approach is complementary to these designs and could replace the attention inside each of them.",
    "The scoring network adds less than one percent to the parameters of the encoder.",
    "We report accuracy for single-label benchmarks and macro-averaged scores for the multi-label one.",
]


def _paragraph(rng: random.Random, n: int, cites: list[str]) -> str:
    """n sentences from the pool, with citations spliced in (the style turns `<cite:key>` into its own command)."""
    picked = rng.sample(_SENTENCES, n)
    if cites:
        at = rng.randrange(len(picked))
        picked[at] = picked[at][:-1] + " <cite:" + ",".join(cites) + ">."
    return " ".join(picked)


def references(count: int) -> list[dict]:
    """`count` bibliography entries (BibTeX-like dicts), deterministic; a mix of articles and proceedings papers."""
    rng = random.Random(7)
    surnames = ["Abadi", "Bengio", "Chen", "Dubois", "Eriksson", "Fujita", "García", "Hoffmann", "Ivanova", "Jensen",
                "Kim", "Lindqvist", "Müller", "Nakamura", "Oliveira", "Petrov", "Quinn", "Rossi", "Santos", "Tanaka",
                "Uddin", "Van Dijk", "Wang", "Xu", "Yilmaz", "Zhou"]
    firsts = ["Anna", "Boris", "Carlos", "Dana", "Emil", "Fatima", "Georg", "Hana", "Ivan", "Julia", "Kenji", "Laura",
              "Mateo", "Nina", "Omar", "Paula", "Ravi", "Sofia", "Tomas", "Ume"]
    topics = ["Efficient attention for long sequences", "Hierarchical encoders for document classification",
              "Learning to route tokens in transformers", "Sparse mixtures of experts at scale",
              "Locality sensitive hashing for attention", "Benchmarks for long document understanding",
              "Memory augmented neural networks", "Relaxed top-k selection with optimal transport",
              "Discourse structure in neural text encoders", "Clinical note classification with transformers",
              "Legal judgment prediction from case documents", "Contract element extraction",
              "Scientific article topic classification", "Linear attention through kernel feature maps",
              "Block sparse attention kernels for accelerators", "Token pruning for faster inference",
              "Recurrent memory for long context modelling", "Global tokens in sparse transformers",
              "Analysing attention heads in pretrained encoders", "Subword vocabularies for domain text"]
    journals = ["Journal of Machine Learning Research", "Transactions of the Association for Computational Linguistics",
                "Neural Computation", "Artificial Intelligence"]
    venues = ["Proceedings of the International Conference on Machine Learning",
              "Advances in Neural Information Processing Systems",
              "Proceedings of the Annual Meeting of the Association for Computational Linguistics",
              "Proceedings of the International Conference on Learning Representations"]
    entries = []
    for i in range(count):
        n_auth = rng.choice([1, 2, 3, 3, 4, 5])
        last = rng.sample(surnames, n_auth)
        authors = [f"{rng.choice(firsts)} {s}" for s in last]
        year = 2012 + (i * 7) % 13
        topic = topics[i % len(topics)] + ("" if i < len(topics) else " revisited")
        key = "".join(c for c in unicodedata.normalize("NFKD", last[0].lower()) if c.isalpha() and c.isascii()) + f"{year}r{i}"
        first_page = rng.randrange(1, 900)
        entry = {"key": key, "authors": authors, "title": topic, "year": str(year),
                 "pages": f"{first_page}--{first_page + rng.randrange(8, 20)}"}
        if i % 3 == 0:
            entry.update(type="article", journal=rng.choice(journals), volume=str(rng.randrange(5, 40)),
                         number=str(rng.randrange(1, 12)))
        else:
            entry.update(type="inproceedings", booktitle=rng.choice(venues))
        entries.append(entry)
    return entries


def body(ref_keys: list[str], acknowledgements: bool = True) -> list[Section]:
    """The section tree; citations are spread over the paragraphs so that every reference is cited once or more."""
    rng = random.Random(13)
    keys = list(ref_keys)
    rng.shuffle(keys)
    chunks = [keys[i::12] for i in range(12)]  # 12 citing paragraphs share all keys
    it = iter(chunks)

    def para(n: int = 5, cite: bool = True) -> str:
        return _paragraph(rng, n, (next(it, []) if cite else []))

    S = Section
    tree = [
        S("Introduction", 1, [para(6), para(5), "Table <ref:tab:main> and Figure <ref:fig:scaling> summarise the "
          "trade-off between accuracy and cost that motivates this work. " + para(3, False), para(5)]),
        S("Related Work", 1, [para(4)], children=[
            S("Hierarchical and Memory Encoders", 2, [para(5), para(4)]),
            S("Efficient Attention", 2, [para(5), para(4, False)]),
        ]),
        S("Method", 1, [para(4, False), EQUATIONS["attn"], para(4, False)], children=[
            S("Problem Formulation", 2, [para(4, False), EQUATIONS["route"], para(3), FIGURES["overview"]]),
            S("Learned Routing", 2, [para(4, False)], children=[
                S("Relaxed Selection", 3, [para(4, False), EQUATIONS["relax"], para(3, False)]),
                S("Load Balancing", 3, [para(4, False), EQUATIONS["balance"], para(3, False)]),
            ]),
            S("Complexity", 2, [para(3, False), EQUATIONS["cost"], para(4, False)]),
        ]),
        S("Experiments", 1, [para(3, False)], children=[
            S("Benchmarks", 2, [para(4), TABLES["datasets"], para(3, False)]),
            S("Baselines and Training", 2, [para(5), para(4, False)]),
            S("Main Results", 2, [para(4, False), TABLES["main"], FIGURES["scaling"], para(5, False)], children=[
                S("Ablations", 3, [para(4, False), TABLES["ablation"], para(3, False)]),
            ]),
            S("Analysis of the Routes", 2, [para(5), FIGURES["routes"], para(4, False)]),
        ]),
        S("Conclusion", 1, [para(5, False), para(4)]),
    ]
    rest = [k for c in it for k in c]
    if rest:  # any keys not handed out yet go to the conclusion
        tree[-1].blocks.append(_paragraph(rng, 2, rest))
    if acknowledgements:
        tree.append(S("Acknowledgments", 1, ["We thank the anonymous reviewers for their comments. This work was "
                                             "supported by a grant for open research software."], numbered=False))
    return tree


def appendix() -> list[Section]:
    """One appendix section with a subsection, printed after the references by the styles that have one."""
    rng = random.Random(29)
    return [Section("Additional Results", 1, [_paragraph(rng, 4, [])], children=[
        Section("Per-Dataset Breakdown", 2, [_paragraph(rng, 5, []), _paragraph(rng, 4, [])]),
    ])]
