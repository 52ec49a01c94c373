"""The accessibility path notation: rendering, numbering and parsing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.a11y.path import PathError, Segment, clip_name, join, number_siblings, parse


def test_render_and_parse_a_gtk_form_path():
    path = join("phantom-form", [Segment("frame"), Segment("panel"),
                                 Segment("text", label="Name:"),
                                 Segment("push button", name="Submit")])
    assert path == "phantom-form/frame/panel/text[@label='Name:']/push button[@name='Submit']"
    app, segments = parse(path)
    assert app == "phantom-form" and segments[-1] == Segment("push button", name="Submit")


def test_only_siblings_sharing_role_and_name_get_an_index():
    numbered = number_siblings([Segment("push button", "OK"), Segment("push button", "OK"),
                                Segment("push button", "Cancel")])
    assert [s.render() for s in numbered] == [
        "push button[@name='OK'][1]", "push button[@name='OK'][2]", "push button[@name='Cancel']"]


@pytest.mark.parametrize("bad", ["", "justapp", "app/Bad[Role", "app/role[@name='x'", "app/role[0x]"])
def test_malformed_paths_are_rejected(bad):
    with pytest.raises(PathError):
        parse(bad)


names = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=30)


@given(app=st.text(min_size=1, max_size=20).filter(lambda s: s.strip() == s and s),
       parts=st.lists(st.tuples(st.sampled_from(["push button", "text", "panel", "menu item"]),
                                names, st.booleans(), st.one_of(st.none(), st.integers(1, 9))),
                      min_size=1, max_size=5))
def test_render_parse_round_trip(app, parts):
    segments = [Segment(role, name=clip_name(n) if as_name else "",
                        label="" if as_name else clip_name(n), index=index)
                for role, n, as_name, index in parts]
    parsed_app, parsed = parse(join(app, segments))
    assert parsed_app == app
    assert list(parsed) == segments
