"""Identifiers compatible with NeuSym-RAG (values checked against seed 000)."""
import uuid

from pipeline import ids

NEWSBENCH = "NewsBench: A Systematic Evaluation Framework for Assessing Editorial Capabilities of Large Language Models in Chinese Journalism"


def test_paper_id_matches_seed():
    assert ids.paper_id(NEWSBENCH, "acl2024") == "a3a0b636-d0ab-5dab-a2c3-49f666755896"


def test_page_id_matches_seed():
    assert ids.page_id("a3a0b636-d0ab-5dab-a2c3-49f666755896", 3) == "67f83fd1-405b-5ac9-9e45-2506b4de4ac1"


def test_venue_normalisation_and_uncategorized():
    assert ids.normalize_venue_year("ACL 2024") == "acl2024"
    assert ids.normalize_venue_year(None) == "uncategorized"
    assert ids.paper_id("A Title!", None) == str(uuid.uuid5(uuid.NAMESPACE_DNS, "atitle-uncategorized"))


def test_child_id_templates():
    pid = "a3a0b636-d0ab-5dab-a2c3-49f666755896"
    u = lambda s: str(uuid.uuid5(uuid.NAMESPACE_DNS, s))  # noqa: E731
    assert ids.page_element_id(pid, 2, "chunk", 1) == u(f"{pid}_page_2_chunk_1")
    assert ids.page_element_id(pid, 5, "image", 3) == u(f"{pid}_page_5_image_3")
    assert ids.section_id(pid, 0) == u(f"{pid}_section_0")
    assert ids.reference_id(pid, 1) == u(f"{pid}_reference_1")
