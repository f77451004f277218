"""See what was extracted: a static HTML report (`paperbase inspect`), boxes drawn onto a PDF copy (`--pdf`) and
exports of one paper (`paperbase export`, Markdown or JSON).

A reader like the agent: it reads the store only through `pipeline.read.Reader` (the import contract
`report-reads-through-the-read-api` checks it) and opens the paper's PDF (its path comes from `metadata.pdf_path`) to
render pages and find where text rows sit on them. Floor: beside `flows` and `agent`, under `cli`.
"""
