"""The intent gate on its own (pure: no store, no model, no desktop): which
verbs and values a request carries, what a program's own words name, and
the verdict — a request that asks for an act the program does not name, or
carries a value with nowhere to go, never reaches the program; then the
shortlist record every interface sends when nothing runs."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.programs.records import Parameter
from replay.compatibility import Assessment, Choice
from replay.intent import Hit
from replay.intent_gate import Value, judge, program_verbs, read_request, values_in, verbs_in
from replay.shortlist import SHORTLIST_MARK, shortlist_of
from testbed.fixture_programs import calculator_program, form_program
from testbed.program_catalog import load_tasks, task_program

TASKS = {task.name: task for task in load_tasks()}


def task(name: str):
    return task_program(TASKS[name]), TASKS[name].description


def verdict(request: str, name: str):
    program, description = task(name)
    return judge(read_request(request), program, description)


# -- what a request carries ------------------------------------------------------------------
@pytest.mark.parametrize("text, verbs", [
    ("withdraw my leave request", {"withdraw"}),
    ("please cancel my meeting room booking", {"cancel"}),
    ("unsubscribe me from the newsletter", {"unsubscribe"}),
    ("I am cancelling the order and deleting the draft", {"cancel", "delete"}),
    ("unregister the attendee", {"unregister"}),
    ("divide 100 by 7", {"divide"}),
    ("buy a box of pens", {"pay"}),
    ("log a defect about the broken export", set()),          # a verb word used as a noun
    ("estimate the cost of sending a crate abroad", set()),
    ("money back for order 5521", set()),
    ("put Grace on the membership list", set()),
])
def test_the_acts_a_request_asks_for(text, verbs):
    assert read_request(text).verbs == verbs


def test_a_programs_words_name_its_acts_and_its_operators():
    assert program_verbs(calculator_program(), "") == {"multiply"}   # 4x9+2 and the × button
    assert program_verbs(*task("request leave")) == frozenset()
    assert program_verbs(*task("order supplies")) == {"pay"}        # "Place order"
    assert verbs_in("Send claim") == {"send"}


@pytest.mark.parametrize("text, values", [
    ("divide 100 by 7", [("number", "100"), ("number", "7")]),
    ("pay bill 4471 by 2026-03-02", [("date", "2026-03-02"), ("number", "4471")]),
    ("what is 'thank you very much' in Japanese", [("quoted", "thank you very much")]),
    ("mail ada@example.org at 10:00", [("email", "ada@example.org"), ("time", "10:00")]),
    ("track 1Z999 on the 12th", [("date", "12th"), ("code", "1Z999")]),
    ("call +49 151 2345678", [("phone", "+49 151 2345678")]),
    ("it's Bob's turn", []),
    ("put Grace on the membership list", []),
])
def test_the_values_a_request_carries(text, values):
    assert values_in(text) == tuple(Value(kind, written) for kind, written in values)


# -- the verdict -------------------------------------------------------------------------------
def test_divide_100_by_7_does_not_reach_the_calculator_routine():
    calc = calculator_program()
    refused = judge(read_request("divide 100 by 7"), calc, "")
    assert not refused.passed and refused.failed == "verbs" and "divide" in refused.reason
    refused = judge(read_request("compute 100 and 7"), calc, "")
    assert not refused.passed and refused.failed == "values"
    assert "'100', '7' bind to no parameter or constant of calc 4x9+2" in refused.reason
    # What the routine does, said in words, reaches it: its operands are its constants.
    passed = judge(read_request("multiply 4 by 9 and add 2"), calc, "")
    assert passed.passed and passed.bound == (("4", "constant"), ("9", "constant"), ("2", "constant"))
    assert judge(read_request("do the calculator routine"), calc, "").passed


@pytest.mark.parametrize("request_, program", [
    ("withdraw my leave request", "request leave"),
    ("cancel my meeting room booking", "book meeting room"),
    ("unsubscribe me from the newsletter", "newsletter"),
    ("delete the contact Bob Marsh", "add contact"),
    ("reject the refund for order A-5521", "refund customer"),
    ("cancel the transfer to my flatmate", "bank transfer"),
])
def test_the_opposite_action_never_reaches_the_program(request_, program):
    refused = verdict(request_, program)
    assert not refused.passed and refused.failed == "verbs" and "does not" in refused.reason


@pytest.mark.parametrize("request_, program, bound", [
    ("pay what we owe the supplier on bill 4471", "pay invoice", (("4471", "P0"),)),
    ("check the status of shipment 1Z999", "track parcel", (("1Z999", "P0"),)),
    ("book the Orion room on 2026-03-09 at 10:00", "book meeting room",
     (("10:00", "constant"), ("2026-03-09", "P1"))),
    ("put Grace on the membership list", "sign up", ()),
    ("sign staff up for the fire safety training", "training course", ()),   # "Enroll"
])
def test_values_bind_to_parameters_of_their_kind_or_equal_a_constant(request_, program, bound):
    passed = verdict(request_, program)
    assert passed.passed, passed.reason
    assert passed.bound == bound


def test_each_parameter_takes_one_value_and_a_value_of_another_kind_none():
    assert not verdict("pay invoices 4471 and 5102 and 6230", "pay invoice").passed   # two parameters
    refused = verdict("sign up ada@example.org", "sign up")     # the Email field is a literal
    assert not refused.passed and "'ada@example.org' binds to no parameter" in refused.reason
    assert not judge(read_request("fill the form for 2026-01-01"), form_program(), "").passed
    form = form_program()
    assert judge(read_request("fill the form with \"Grace Hopper\""), form, "").bound == (
        ("Grace Hopper", "P0"),)
    assert judge(read_request("fill the form for team@example.org"), form, "").bound == (
        ("team@example.org", "constant"),)


def test_a_date_binds_to_a_field_that_takes_dates():
    program, description = task("add calendar event")
    assert judge(read_request("the doctor's visit on the 12th"), program, description).passed
    no_dates = Parameter("P0", 1, "Comments", ("busy week",), 0.9)
    assert not judge(read_request("on 2026-03-02"), program.__class__(
        "note", "demonstration", "x", (), (no_dates,), program.guard, 2), "").passed


# -- the shortlist -------------------------------------------------------------------------------
def test_the_shortlist_ranks_what_was_refused_and_travels_as_one_line_then_json():
    calc = calculator_program()
    form = form_program()
    refused = Assessment(Hit(calc.id, calc.name, "", 0.62, 0.9, 1.0), "intent",
                         judge(read_request("divide 100 by 7"), calc, "").reason, program=calc)
    scored = Assessment(Hit(form.id, form.name, "register a member", 0.3, 0.2, 0.6), None,
                        "intent 0.60, lifecycle 1.00", {"intent": 0.6}, 0.69, form)
    choice = Choice("divide 100 by 7", None, (refused, scored), "no compatible program for 'divide 100 by 7'")
    shortlist = shortlist_of(choice)
    assert [c.name for c in shortlist.candidates] == ["fill form", "calc 4x9+2"]   # scored first
    first, second = shortlist.candidates
    assert (first.app, first.description, first.compatibility, first.failed) == (
        "phantom-form", "register a member", 0.69, None)
    assert [(p.name, p.field) for p in first.parameters] == [("P0", "Name:")]
    assert second.failed == "intent" and second.why.startswith("intent gate: the request asks to divide")
    message = shortlist.message()
    assert "\n" not in message and message.startswith("no compatible program for 'divide 100 by 7'; "
                                                      "nothing was sent")
    listed = json.loads(message.split(SHORTLIST_MARK, 1)[1])
    assert [c["id"] for c in listed] == [form.id, calc.id]
    assert set(listed[0]) == {"id", "name", "description", "app", "parameters", "compatibility",
                              "failed_gate", "why"}
    lines = shortlist.lines()
    assert lines[0].startswith(f"1. fill form ({form.id}) in phantom-form — register a member; takes P0 (Name:)")
    assert lines[2].startswith(f"2. calc 4x9+2 ({calc.id}) in gnome-calculator; takes no parameters; "
                               "failed the intent gate")


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_any_request_gets_a_verdict(text):
    """Whatever the words, digits or scripts, the gate answers (it never raises)."""
    request = read_request(text)
    for program, description in ((calculator_program(), ""), task("pay invoice"), task("request leave")):
        assert isinstance(judge(request, program, description).passed, bool)


def test_many_values_for_many_parameters_are_decided_at_once():
    """Twelve numbers for a program that takes eleven: refused by counting, not by trying every order."""
    form = form_program()
    numeric = tuple(Parameter(f"P{n}", n, f"Field {n}", ("12",), 0.9) for n in range(11))
    program = form.__class__("many", "demonstration", "x", (), numeric, form.guard, 2)
    request = read_request(" ".join(str(n) for n in range(100, 112)))
    refused = judge(request, program, "")
    assert not refused.passed and refused.failed == "values"
    assert judge(read_request(" ".join(str(n) for n in range(100, 111))), program, "").passed
