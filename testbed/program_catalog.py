"""The program-memory catalog: fifty hand-written form tasks
(`fixtures/program_memory/tasks.toml`) as programs over the form fixture app,
the starting screens the state-gate benchmark shows them, and distractor
programs for the retrieval benchmark.

A task's program clicks its first field, types into every field (the first
ones are parameters, the rest literals) and presses its button; the window is
the form app with the task's title and fields, and a run ends in that window
titled "… — sent". Distractors are other everyday tasks — a verb and an object
from the lists below, in another application — so that retrieval has to tell
the fifty apart from hundreds of programs that share their verbs and places;
they are not run."""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass
from pathlib import Path

from compiler.programs.records import Condition, EndState, Guard, Parameter, Program, ProgramStep, Target
from compiler.programs.titles import title_words

TASKS = Path(__file__).resolve().parents[1] / "fixtures" / "program_memory" / "tasks.toml"
APP = "phantom-form"
PANEL = f"{APP}/frame/panel"
RECORDED_GEOMETRY = "360x260+40+40"
MOVED_GEOMETRY = "520x330+380+260"


@dataclass(frozen=True, slots=True)
class Task:
    name: str
    description: str
    title: str
    fields: tuple[str, ...]
    samples: tuple[tuple[str, ...], ...]   # per parameter: the recorded values
    fixed: tuple[str, ...]                 # literal values of the remaining fields
    button: str
    relabel: str
    danger: str
    calibration: str
    intent: str


def load_tasks(path: Path = TASKS) -> tuple[Task, ...]:
    with open(path, "rb") as handle:
        raw = tomllib.load(handle)["task"]
    return tuple(Task(t["name"], t.get("description", ""), t["title"], tuple(t["fields"]),
                      tuple(tuple(s) for s in t["samples"]), tuple(t.get("fixed", ())), t["button"],
                      t["relabel"], t["danger"], t["calibration"], t["intent"]) for t in raw)


def field_target(label: str) -> Target:
    return Target(APP, f"{PANEL}/text[@label='{label}:']", "text", "", f"{label}:", None)


def button_target(label: str) -> Target:
    return Target(APP, f"{PANEL}/filler/push button[@name='{label}']", "push button", label, "", None)


def task_program(task: Task) -> Program:
    """The program a person would have recorded for the task (twice)."""
    resolves = Condition("aria_path_resolves")
    first = field_target(task.fields[0])
    steps = [ProgramStep(0, "click", first, precondition=resolves,
                         postcondition=Condition("state_delta", "focus"))]
    parameters = []
    for position, label in enumerate(task.fields):
        index = len(steps)
        if position < len(task.samples):
            name = f"P{position}"
            samples = task.samples[position]
            parameters.append(Parameter(name, index, f"{label}:", samples, 0.8))
            text, distance = f"${name}", 0.8
        else:
            text = task.fixed[position - len(task.samples)]
            samples, distance = (text, text), 0.0
        steps.append(ProgramStep(index, "type", field_target(label), text=text, precondition=resolves,
                                 postcondition=Condition("state_delta", "value"), distance=distance,
                                 samples=samples, entry="replace"))
    steps.append(ProgramStep(len(steps), "click", button_target(task.button), precondition=resolves))
    words = title_words(task.title)
    return Program(task.name, "demonstration", APP, tuple(steps), tuple(parameters),
                   Guard(APP, start_path=first.path, title_tokens=words), 2,
                   origin=("recording:1", "recording:2"),
                   end_state=EndState(APP, (*words, "sent"))).with_id()


def new_values(task: Task, run: int) -> dict[str, str]:
    """Values for the task's parameters that no demonstration used."""
    return {f"P{i}": f"{samples[0][:12]} {run}" for i, samples in enumerate(task.samples)}


def form_args(task: Task, *, title: str | None = None, fields: tuple[str, ...] | None = None,
              button: str | None = None, geometry: str = RECORDED_GEOMETRY) -> list[str]:
    """The form app's arguments for a starting screen of the task."""
    args = ["--title", title or task.title, "--fields", ",".join(fields or task.fields),
            "--geometry", geometry]
    if button == "":
        return [*args, "--no-submit"]
    return [*args, "--submit-label", button or task.button]


# -- distractors ---------------------------------------------------------------------------------
VERBS = ("archive", "export", "print", "rename", "merge", "sort", "review", "download", "upload",
         "tag", "duplicate", "close", "reopen", "assign", "share", "import", "back up", "clean up",
         "sync", "compress")
OBJECTS = (
    ("old emails", "thunderbird"), ("project folders", "nautilus"), ("holiday photos", "shotwell"),
    ("spreadsheet rows", "libreoffice-calc"), ("meeting notes", "mousepad"),
    ("draft documents", "libreoffice-writer"), ("browser bookmarks", "firefox"),
    ("git branches", "gitg"), ("chat threads", "slack"), ("slide deck", "libreoffice-impress"),
    ("pdf reports", "evince"), ("log files", "gnome-logs"), ("customer list", "libreoffice-calc"),
    ("wiki page", "firefox"), ("code review", "gitg"), ("music playlist", "rhythmbox"),
    ("podcast episodes", "gpodder"), ("screenshots", "nautilus"), ("support macros", "firefox"),
    ("sales leads", "firefox"), ("marketing copy", "libreoffice-writer"),
    ("job postings", "firefox"), ("design mockups", "inkscape"), ("font files", "nautilus"),
    ("backup tapes", "deja-dup"), ("server certificates", "seahorse"), ("test results", "firefox"),
    ("contracts", "libreoffice-writer"), ("press clippings", "evince"),
    ("video recordings", "totem"), ("shared drive", "nautilus"), ("browser history", "firefox"),
)
LABELS = ("Select all", "Search", "Filter", "Folder", "File name", "Tags", "Destination", "Options",
          "Name", "Format")
BUTTONS = ("OK", "Apply", "Done", "Start", "Run", "Continue")


def distractor_programs(count: int, seed: int = 15) -> tuple[Program, ...]:
    """`count` (≤ 640) everyday programs that are none of the fifty tasks,
    in a fixed order (the first 200 of 600 are the 200)."""
    pairs = [(verb, obj, app) for verb in VERBS for obj, app in OBJECTS]
    random.Random(seed).shuffle(pairs)
    if count > len(pairs):
        raise ValueError(f"at most {len(pairs)} distractors")
    programs = []
    for n, (verb, obj, app) in enumerate(pairs[:count]):
        rng = random.Random(f"{seed}:{n}")
        label, other = rng.sample(LABELS, 2)
        button = rng.choice(BUTTONS)
        frame = f"{app}/frame/panel"
        resolves = Condition("aria_path_resolves")
        field = Target(app, f"{frame}/text[@label='{label}']", "text", "", label, None)
        steps = (
            ProgramStep(0, "click", Target(app, f"{frame}/push button[@name='{other}']", "push button",
                                           other, "", None), precondition=resolves),
            ProgramStep(1, "type", field, text="$P0", precondition=resolves, samples=("a", "b"),
                        distance=0.9, entry="insert"),
            ProgramStep(2, "click", Target(app, f"{frame}/push button[@name='{button}']", "push button",
                                           button, "", None), precondition=resolves),
        )
        programs.append(Program(f"{verb} {obj}", "demonstration", app, steps,
                                (Parameter("P0", 1, label, ("a", "b"), 0.9),),
                                Guard(app, title_tokens=title_words(app)), 2).with_id())
    return tuple(programs)


def distractor_description(program: Program, n: int) -> str:
    """Every other distractor has a description, as people give them."""
    return f"{program.name} in {program.app}" if n % 2 == 0 else ""
