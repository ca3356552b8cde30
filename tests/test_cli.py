"""The `riftsim` command itself: help, and never a traceback."""
import pytest

from simulator.cli.main import main


def test_help_lists_every_subcommand(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for name in ("simulate", "diagrams", "verify", "play", "rules"):
        assert name in out


def test_no_subcommand_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "usage: riftsim" in capsys.readouterr().out


def _bug(error: Exception, monkeypatch, capsys) -> list[str]:
    """What `riftsim rules 340` prints when its command raises ``error`` (a bug): exit 3, stderr's lines."""
    def boom(args):
        raise error
    monkeypatch.setattr("simulator.cli.rules.run", boom)
    monkeypatch.delenv("RIFTSIM_DEBUG", raising=False)
    assert main(["rules", "340"]) == 3
    return capsys.readouterr().err.strip().splitlines()


def test_a_bug_inside_riftsim_is_one_line_and_exit_3(monkeypatch, capsys):
    err = _bug(KeyError("oops"), monkeypatch, capsys)
    assert len(err) == 1 and err[0].startswith("riftsim: internal error: KeyError")


def test_a_bug_in_a_worker_process_is_one_line_too(monkeypatch, capsys):
    """A shard's worker reports a bug with its traceback (cluster.ShardError): the command prints the
    traceback's last line, the error itself; RIFTSIM_DEBUG=1 shows all of it."""
    from simulator.verify.cluster import ShardError
    error = ShardError('Traceback (most recent call last):\n  File "x.py", line 1, in f\nTypeError: bad frontier\n')
    err = _bug(error, monkeypatch, capsys)
    assert err == ["riftsim: internal error: ShardError: TypeError: bad frontier (set RIFTSIM_DEBUG=1 for the traceback)"]
    monkeypatch.setenv("RIFTSIM_DEBUG", "1")
    with pytest.raises(ShardError, match="Traceback"):
        main(["rules", "340"])


def test_python_api_validates_a_setup_like_a_scenario_file():
    """Game.from_setup: an unknown battlefield under `control` is a one-line ScenarioError, not a KeyError."""
    from simulator import Game, ScenarioError
    with pytest.raises(ScenarioError) as e:
        Game.from_setup({"players": ["A", "B"], "battlefields": ["North"], "control": {"Nowhere": "A"}})
    assert str(e.value) == "setup:1: unknown battlefield Nowhere in control (battlefields: North)"


def test_verify_export_to_a_missing_directory_fails_before_exploring(capsys):
    """Bad input (an --export path that cannot be written) is one line and exit 2, before any search."""
    assert main(["verify", "--export", "/nonexistent-dir/space.graphml"]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip().splitlines() == [
        "riftsim: /nonexistent-dir/space.graphml: cannot write the GraphML export: /nonexistent-dir is not a directory"]
    assert "explore:" not in captured.out
