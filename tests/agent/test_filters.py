"""Vector filters are checked against filter_rules.json and the collection's fields before Milvus sees them."""
from __future__ import annotations

import pytest

from schemas.filters import FilterError, validate_filter

TEXT, IMAGE = "text_bm25_en", "image_clip_clip_vit_base_patch32"


@pytest.mark.parametrize("expr, coll", [
    ("", TEXT), ("pdf_id == '12345678' and page_number == 1", TEXT),
    ("table_name == 'chunks' and primary_key in ['123', '456', '789']", TEXT),
    ("bbox[0] + bbox[2] <= 100 and bbox[1] + bbox[3] <= 300 and pdf_id == '123456' and page_number == 1", IMAGE),
    ("array_contains(bbox, 100) or array_length(bbox) == 4", IMAGE), ("not (page_number > 3)", TEXT),
    ("primary_key like 'ab%' AND page_number != -1", TEXT), ("pdf_id == 'and or not like'", TEXT),
])
def test_valid(expr, coll):
    validate_filter(expr, coll)


@pytest.mark.parametrize("expr, coll, reason", [
    ("ref_paper_id == 'x'", TEXT, "`ref_paper_id` is not a valid field name of stored data entries in the vectorstore, please use `pdf_id` instead."),
    ("conference_full == 'ACL 2023'", TEXT, "`conference_full` is not a valid field name"),
    ("pdf_id in (SELECT paper_id FROM metadata)", TEXT, "syntax error"),
    ("pdf_id in ('a', 'b')", TEXT, "needs a list literal"),
    ("section_title = '2 Related Work'", TEXT, "use `==` for equality"),
    ("bbox[0] < 5", TEXT, "`bbox` is not a valid field name"),
    ("vector == 1", TEXT, "`vector` is not a valid field name"),
    ("__import__('os')", TEXT, "not in the filter grammar"),
    ("pdf_id.lower() == 'x'", TEXT, "not in the filter grammar"),
    ("pdf_id == 'x' | 1", TEXT, "not in the filter grammar"),
    ("'x'", TEXT, "is not a condition"),
    ("pdf_id == 'x'", "no_such_collection", "unknown collection"),
])
def test_invalid(expr, coll, reason):
    with pytest.raises(FilterError) as info:
        validate_filter(expr, coll)
    assert reason in str(info.value)
