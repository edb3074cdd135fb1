"""Fuzzing the command line: argument lists for every command, in this process for speed, and the
worst of them once more in a real process. Each ends cleanly (see `fuzzing`)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.commands import HANG_S
from tests.fuzzing import assert_clean, fuzz, junk, run, scratch, small_limits, small_numbers
from timestep_lab import POLICIES

ROOT = Path(__file__).resolve().parents[1]
WORK = scratch("cli")
SCENARIO = ROOT / "configs" / "scenarios" / "single_stall.toml"
(WORK / "junk.toml").write_text("seconds = [[[\n")
(WORK / "script.txt").write_text("0 space\n50 click 20 8\n100 e\n")
(WORK / "folder").mkdir()

inputs = st.one_of(
    st.sampled_from(
        [str(SCENARIO), str(WORK / "junk.toml"), str(WORK / "gone.toml"), str(WORK / "folder"),
         "/dev/null", str(ROOT / "configs" / "default.toml"), str(WORK / "script.txt")]
    ),
    junk,
)  # fmt: skip
outputs = st.one_of(
    st.sampled_from([str(WORK / "out"), str(WORK / "folder"), str(WORK / ("a" * 256))]),
    st.sampled_from([str(WORK / "junk.toml"), str(WORK / "r.replay"), str(WORK / "shot.png")]),
    junk,
)
Options = dict[str, st.SearchStrategy[str]]


@pytest.fixture(autouse=True, scope="module")
def _small_limits() -> Iterator[None]:
    with small_limits():
        yield


def arguments(options: Options, switches: tuple[str, ...] = ()) -> st.SearchStrategy[list[str]]:
    """Up to five flags, each with a likely value or junk, mixed with switches and junk words."""
    flag = st.sampled_from(sorted(options)).flatmap(
        lambda name: st.one_of(options[name], junk).map(lambda value: [name, value])
    )
    words = [flag, flag, flag, junk.map(lambda word: [word])]
    if switches:
        words.append(st.sampled_from(switches).map(lambda switch: [switch]))
    return st.lists(st.one_of(words), max_size=5).map(
        lambda groups: [word for group in groups for word in group]
    )


numbers = st.one_of(small_numbers, junk)
SCENARIO_FLAGS: Options = {
    "--scenario": inputs,
    "--hz": numbers,
    "--max-steps": numbers,
    "--max-frame-ms": numbers,
    "--max-backlog-ms": numbers,
    "--time-scale": numbers,
    "--render-fps": numbers,
    "--render-cost-ms": numbers,
    "--step-cost-ms": numbers,
    "--stall": st.tuples(small_numbers, small_numbers).map(lambda pair: ":".join(pair)),
}
seconds = st.sampled_from(["0.2", "0.5", "0", "-1", "abc", "\u0663", "9" * 150, "3601"])


@fuzz(60)
@given(
    arguments(
        {"--hz": numbers, "--step-ms": numbers, "--policy": st.sampled_from(list(POLICIES)),
         "--max-steps": numbers, "--max-frame-ms": numbers, "--max-backlog-ms": numbers,
         "--time-scale": numbers, "--alpha": st.sampled_from(["correct", "naive"]),
         "--initial-remainder-ms": numbers},
        ("--json",),
    ),
    st.lists(
        st.one_of(
            numbers,
            st.sampled_from(["pause", "resume"]),
            st.tuples(small_numbers, st.integers(0, 20)).map(lambda pair: f"{pair[0]}x{pair[1]}"),
        ),
        max_size=6,
    ),
)  # fmt: skip
def test_schedule_ends_cleanly_on_any_arguments(flags: list[str], frames: list[str]) -> None:
    assert_clean(run(["schedule", *flags, *frames]))


@fuzz(50)
@given(
    arguments(
        {**SCENARIO_FLAGS, "--policy": st.sampled_from(list(POLICIES)), "--out": outputs,
         "--record": outputs},
        ("--json",),
    ),
    seconds,
)  # fmt: skip
def test_simulate_ends_cleanly_on_any_arguments(flags: list[str], length: str) -> None:
    assert_clean(run(["simulate", *flags, "--seconds", length]))


policy_lists = st.lists(st.sampled_from([*POLICIES, "", "panic"]), min_size=1, max_size=4).map(
    ",".join
)


@fuzz(20)
@given(arguments({**SCENARIO_FLAGS, "--policies": policy_lists, "--out": outputs}), seconds)
def test_compare_ends_cleanly_on_any_arguments(flags: list[str], length: str) -> None:
    assert_clean(run(["compare", *flags, "--seconds", length]))


def _recording() -> str:
    path = WORK / "session.replay"
    if not path.exists():
        assert run(["simulate", "--seconds", "1", "--record", str(path)]).code == 0
    return str(path)


@fuzz(40)
@given(
    st.one_of(st.just("session"), inputs, st.sampled_from(["/dev/zero", "/dev/null"])),
    arguments({"--render-fps": numbers}),
)
def test_replay_ends_cleanly_on_any_arguments(file: str, flags: list[str]) -> None:
    path = _recording() if file == "session" else file
    assert_clean(run(["replay", path, *flags]))


@fuzz(30)
@given(arguments({"--plot": outputs}, ("--json",)))
def test_lab_ends_cleanly_on_any_arguments(flags: list[str]) -> None:
    # The experiments are the lab's own tests' business; here only its arguments and outputs.
    with (
        mock.patch("game.commands.lab.projectile_error", return_value=0.0),
        mock.patch("game.commands.lab.spring_energy_drift", return_value=0.0),
        mock.patch("game.commands.lab_plots.write_figures", side_effect=_no_figures),
    ):
        assert_clean(run(["lab", *flags]))


def _no_figures(directory: Path) -> list[Path]:
    return [directory / "projectile.png"]


CAPTURE = WORK / "capture.csv"
CAPTURE.write_text(
    "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,"
    "PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,"
    "MsUntilRenderComplete,MsUntilDisplayed\n"
    + "".join(
        f"game.exe,4712,0x1,DXGI,1,0,0,Hardware: Legacy Flip,{k % 5 == 0:d},{k / 100:.6f},"
        f"{10 + (k % 7) * 3}.5,16.666667,0.1,1.0,2.0\n"
        for k in range(1, 40)
    )
)
rate_lists = st.lists(st.one_of(small_numbers, junk), min_size=1, max_size=3).map(",".join)


@pytest.mark.slow
@fuzz(30)
@given(
    st.one_of(st.just(str(CAPTURE)), inputs),
    arguments(
        {"--hz": rate_lists, "--policies": policy_lists, "--max-steps": numbers,
         "--column": st.sampled_from(["presents", "display", "simulation", "frames"]),
         "--process": st.sampled_from(["game.exe", "4712", "other.exe", "-1"]),
         "--swapchain": st.sampled_from(["0x1", "0x0001", "0xzz", ""]),
         "--headroom-frames": numbers, "--workers": st.sampled_from(["1", "0", "-2", "x"]),
         "--present-mode": st.sampled_from(["queue", "latest", "immediate", "tear"]),
         "--refresh": numbers, "--out": outputs},
        ("--json",),
    ),
)  # fmt: skip
def test_capture_ends_cleanly_on_any_arguments(file: str, flags: list[str]) -> None:
    assert_clean(run(["capture", file, *flags]))


settings_words = st.sampled_from(
    ["scheduler.hz=30", "scheduler.policy=uncapped", "load.step_cost_ms=20", "hud.graphs=false",
     "app.screenshot_dir=" + str(WORK / "shots"), "render.width=320", "world.seed=0x10"]
)  # fmt: skip


@fuzz(12)
@given(
    st.sampled_from([[], ["play"]]),
    arguments(
        {"--config": inputs, "--set": st.one_of(settings_words, junk), "--script": inputs,
         "--screenshot": outputs, "--lesson": st.one_of(st.integers(0, 8).map(str), junk),
         "--record": outputs},
    ),
)  # fmt: skip
def test_play_ends_cleanly_on_any_arguments(command: list[str], flags: list[str]) -> None:
    assert_clean(run([*command, *flags, "--frames", "2"]))


@fuzz(30)
@given(st.lists(st.one_of(junk, st.sampled_from(["--help", "-h", "play", "replay"])), max_size=3))
def test_any_first_words_end_cleanly(words: list[str]) -> None:
    assert_clean(run(words) if words[:1] not in (["play"], []) else run([*words, "--frames", "1"]))


# -- in a real process -----------------------------------------------------------------------------

DEEP = WORK / "deep.toml"
DEEP.write_text("a = " + "[" * 600 + "]" * 600 + "\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["schedule", "16", "31536000001"],
        ["schedule", "--hz", "\u0663", "16"],
        ["simulate", "--scenario", "/dev/zero"],
        ["simulate", "--scenario", str(DEEP)],
        ["simulate", "--seconds", "10", "--stall", "2:7999"],
        ["compare", "--seconds", "1", "--out", str(WORK / ("a" * 256))],
        ["replay", "/dev/zero"],
        ["--config", "/dev/zero", "--frames", "1"],
        ["--script", "/dev/zero", "--frames", "1"],
        ["--set", 'app.screenshot_dir="a\\u0000b"', "--frames", "1"],
        ["lab", "--plot", str(WORK / ("a" * 256))],
    ],
    ids=lambda args: " ".join(args).replace(str(WORK), "WORK")[:40],
)
def test_the_real_program_refuses_in_one_line_without_a_traceback(args: list[str]) -> None:
    env: dict[str, Any] = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "game", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_S,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
