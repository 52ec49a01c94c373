"""Multi-trace alignment: the medoid reference, steps shared by every trace,
noise dropped and counted."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein
from test_programs_fixtures import trace

from compiler.programs.align import align_sequences, align_traces, encode, matches, medoid
from compiler.programs.build import compile_program

FORM = ("Name", "Email", "Phone", "Submit", "Close")


def labels(program):
    return [step.target.display for step in program.steps]


def test_noise_click_in_one_trace_is_dropped():
    traces = [trace("a", *FORM), trace("b", *FORM),
              trace("c", "Name", "Email", "Help", "Phone", "Submit", "Close")]
    report = compile_program("form", traces, source="demonstration")
    assert labels(report.program) == list(FORM)
    assert report.dropped_steps == report.program.dropped_steps == 1
    assert any("1 recorded action(s)" in w for w in report.warnings)
    clean = compile_program("form", traces[:2], source="demonstration")
    assert [s.target for s in clean.program.steps] == [s.target for s in report.program.steps]


def test_noise_in_the_reference_position_is_dropped_too():
    traces = [trace("a", "Name", "Help", "Email", "Submit"), trace("b", "Name", "Email", "Submit"),
              trace("c", "Name", "Email", "Submit")]
    aligned = align_traces(traces)
    assert aligned.reference == 1
    assert [[a.step.label for a in row] for row in aligned.steps] == [["Name"] * 3, ["Email"] * 3,
                                                                      ["Submit"] * 3]
    assert aligned.dropped_steps == 1


def test_missing_step_is_left_out():
    traces = [trace("a", "Name", "Email", "Phone", "Submit"), trace("b", "Name", "Email", "Submit")]
    report = compile_program("form", traces, source="demonstration")
    assert labels(report.program) == ["Name", "Email", "Submit"]
    assert report.dropped_steps == 1


def test_reordered_steps_keep_one_of_the_pair():
    traces = [trace("a", "Name", "Email", "Phone", "Submit"), trace("b", "Name", "Phone", "Email", "Submit")]
    report = compile_program("form", traces, source="demonstration")
    kept = labels(report.program)
    assert kept[0] == "Name" and kept[-1] == "Submit" and len(kept) == 3
    assert kept[1] in ("Email", "Phone")
    assert report.dropped_steps == 2      # one from each trace


def test_the_medoid_is_the_reference():
    codes = encode([["A", "X", "Y", "B", "C"], ["A", "B", "C"], ["A", "B", "C", "Z"]])
    assert medoid(codes) == 1
    alignment = align_sequences([["A", "X", "Y", "B", "C"], ["A", "B", "C"], ["A", "B", "C", "Z"]])
    assert alignment.reference == 1
    assert alignment.positions == ((0, 0, 0), (3, 1, 1), (4, 2, 2))
    assert alignment.dropped_steps == 3


def test_medoid_ties_go_to_the_first():
    assert medoid(encode([["A", "B"], ["A", "C"]])) == 0
    assert medoid(encode([["A"], ["A"], ["A"]])) == 0


def test_literals_come_from_the_medoid():
    from test_programs_fixtures import act

    from compiler.programs.traces import Trace

    def demo(n, text, extra=False):
        actions = [act("click", "Note", ts=0)]
        if extra:
            actions.append(act("click", "Help", ts=1))
        actions.append(act("type", "Note", text=text, ts=2, role="text"))
        return Trace(f"t{n}", tuple(actions))

    traces = [demo(0, "hello world!", extra=True), demo(1, "hello world"), demo(2, "hello world")]
    program = compile_program("note", traces, source="demonstration").program
    assert program.steps[1].text == "hello world"       # trace 1 is the medoid, not trace 0


def test_lcs_alignment_keeps_matches_levenshtein_would_lose():
    """Levenshtein's script for these substitutes everything; the shared B
    is only kept by an insert/delete (LCS) alignment."""
    a, b = [4, 0], [0, 3, 3, 3]
    lev_matched = sum(op.src_end - op.src_start for op in Levenshtein.opcodes(a, b) if op.tag == "equal")
    assert lev_matched == 0
    assert matches(a, b) == [-1, 0]
    assert align_sequences([["A", "B"], ["B", "C", "C", "C"]]).positions == ((1, 0),)


def test_encoding_is_by_first_appearance():
    assert encode([[("x", 1), ("y", 2)], [("y", 2), ("z", 3)]]) == ((0, 1), (1, 2))


def lcs_length(a, b):
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a)):
        for j in range(len(b)):
            table[i + 1][j + 1] = table[i][j] + 1 if a[i] == b[j] else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


sequences = st.lists(st.lists(st.sampled_from("ABCDEFG"), min_size=0, max_size=12), min_size=2, max_size=5)


@settings(max_examples=300, deadline=None)
@given(sequences)
def test_alignment_properties(seqs):
    alignment = align_sequences(seqs)
    k = len(seqs)
    for row in alignment.positions:                   # every step is the same key in every trace
        assert len(row) == k
        assert len({seqs[t][p] for t, p in enumerate(row)}) == 1
    for t in range(k):                                # and in order
        column = [row[t] for row in alignment.positions]
        assert column == sorted(set(column))
    assert alignment.dropped_steps == sum(map(len, seqs)) - k * len(alignment.positions)
    if k == 2:                                        # two traces: a longest common subsequence
        assert len(alignment.positions) == lcs_length(*seqs)


@settings(max_examples=100, deadline=None)
@given(sequences)
def test_alignment_does_not_depend_on_key_values(seqs):
    """Renaming the keys (a bijection) cannot change which positions align."""
    renamed = [[("key", ord(c) * 7) for c in seq] for seq in seqs]
    assert align_sequences(seqs) == align_sequences(renamed)
