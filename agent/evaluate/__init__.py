"""Evaluation of the agent on AirQA-format question sets: the 19 eval functions (`functions`, `judged`, composed in
`scoring`) and the harness that runs, scores, resumes and summarises (`harness`).

Rules: this package reads the store only through `pipeline.read` and talks to models only through `pipeline.llm`.
"""
