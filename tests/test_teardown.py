"""The `kg` program ends without the interpreter's teardown (`kg.teardown`), with its
output, exit status and `atexit` handlers as a normal exit has them; the library frees
what it made as usual."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from kg import teardown
from kg.builder.pipeline import build

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
SEED = sorted(SEEDS.glob("*.txt"))[0]


def _run(
    body: str, tmp_path: Path, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(body))
    return subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**_environ(), "PYTHONPATH": str(ROOT), **(extra or {})},
    )


def _environ() -> dict[str, str]:
    """This environment, with stdout buffered as it is by default (not PYTHONUNBUFFERED)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def test_end_process_flushes_runs_atexit_and_keeps_the_status(tmp_path: Path) -> None:
    marker = tmp_path / "atexit.txt"
    done = _run(
        f"""
        import atexit, sys
        from kg import teardown
        atexit.register(lambda: open({str(marker)!r}, "w").write("ran"))
        teardown.arm()
        teardown.keep([0] * 1000)
        sys.stdout.write("x" * 100000)  # buffered, not yet written
        sys.stderr.write("on stderr")
        teardown.end_process(3)
        print("not reached")
        """,
        tmp_path,
    )
    assert done.returncode == 3
    assert done.stdout == "x" * 100000
    assert done.stderr == "on stderr"
    assert marker.read_text() == "ran"


def test_a_running_thread_is_waited_for(tmp_path: Path) -> None:
    done = _run(
        """
        import threading, time
        from kg import teardown
        def late():
            time.sleep(0.5)
            print("thread done", flush=True)
        threading.Thread(target=late).start()
        teardown.end_process(4)
        """,
        tmp_path,
    )
    assert done.returncode == 4
    assert done.stdout == "thread done\n"


def test_a_closed_stdout_is_status_120(tmp_path: Path) -> None:
    done = _run(
        """
        import os, sys
        from kg import teardown
        sys.stdout.write("lost")
        os.close(1)
        teardown.end_process(0)
        """,
        tmp_path,
    )
    assert done.returncode == 120


def test_the_library_keeps_nothing(tmp_path: Path) -> None:
    """Unarmed (a caller of the library, this test process), a build keeps nothing: what
    it made is freed when it returns."""
    assert teardown.kept() == 0
    build([SEED], tmp_path / "out", views="none", cache=False)
    assert teardown.kept() == 0


def test_the_program_keeps_what_a_build_made_and_exits_as_before(tmp_path: Path) -> None:
    """`kg` (python -m kg) builds, prints its summary and ends with status 0; a bad input
    still ends with status 2 and its message; the build kept its objects to the end."""
    out = tmp_path / "out"
    done = _run(
        f"""
        import json, sys
        from kg import teardown
        import kg.cli
        real = teardown.end_process
        def report(code):
            print(json.dumps({{"code": code, "kept": teardown.kept()}}), file=sys.stderr)
            real(code)
        teardown.end_process = report
        sys.argv = ["kg", "build", {str(SEED)!r}, "-o", {str(out)!r},
                    "--views", "none"]
        kg.cli.run()
        """,
        tmp_path,
        {"KG_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert done.returncode == 0, done.stderr
    assert "papers:" in done.stdout and "wrote:" in done.stdout
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["code"] == 0
    assert report["kept"] >= 3
    assert (out / "kg.ttl").is_file()

    missing = tmp_path / "missing.jsonl"
    failed = subprocess.run(
        [sys.executable, "-m", "kg", "build", str(missing), "-o", str(tmp_path / "o2")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**_environ(), "KG_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert failed.returncode == 2
    assert "missing.jsonl" in failed.stderr and "Traceback" not in failed.stderr


def test_a_profiler_gets_its_output_written(tmp_path: Path) -> None:
    """Under `python -m cProfile -m kg`, the program ends as usual, so the profile is written."""
    profile = tmp_path / "kg.prof"
    done = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "kg", "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**_environ(), "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "kg, version 0.1.0\n"
    assert profile.stat().st_size > 0


def test_run_passes_on_a_message_for_python_to_print(tmp_path: Path) -> None:
    """A command that exits with a message (a string) gets Python's own exit: the message on
    stderr and status 1; an exit status of None is 0."""
    for exit_with, status, stderr in (('"boom"', 1, "boom\n"), ("None", 0, "")):
        done = _run(
            f"""
            import sys
            import kg.cli
            kg.cli.main.main = lambda: sys.exit({exit_with})
            kg.cli.run()
            """,
            tmp_path,
        )
        assert (done.returncode, done.stderr) == (status, stderr)
