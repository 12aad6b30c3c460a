"""The command runner over SSH and locally: streaming, literal arguments, cancel, timeout, drops."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from workbench.core.services.transport import (
    ConnectionLost,
    LocalTransport,
    RunTimeout,
    build_script,
    iter_lines,
    kill_local_group,
    reason,
)
from workbench.core.tasks import Cancelled, CancelToken, RecordingProgress

# Every argument must come back byte for byte.
NASTY = [
    "plain",
    "with space",
    "two  spaces",
    "it's",
    'say "hi"',
    "semi;colon",
    "$(echo injected)",
    "`echo injected`",
    "line1\nline2",
    "中文参数 路径",
    "*",
    "~",
    "$HOME",
    "back\\slash",
    "-n",
    "",
    "a && b || c",
    "pipe | grep",
    "> out.txt",
    "tab\there",
    "'; rm -rf / #",
    "${IFS}x",
    "!bang",
    "#hash",
]


@pytest.fixture(params=["ssh", "local"])
def transport(request):
    if request.param == "ssh":
        return request.getfixturevalue("ssh_transport")
    return LocalTransport()


def _group_alive(pgid: int) -> list[str]:
    """Live processes of the group per `ps` (the server is this machine); zombies are dead, only
    waiting for init to reap them."""
    out = subprocess.run(["ps", "-eo", "pid=,pgid=,stat=,args="], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if line.split()[1] == str(pgid) and not line.split()[2].startswith("Z")]


def test_arguments_reach_the_other_side_literally(transport):
    result = transport.run(["printf", "%s\\0", *NASTY])
    assert result.exit_status == 0
    assert result.stdout.split("\0")[:-1] == NASTY


def test_cwd_env_and_devices_are_literal(transport, tmp_path):
    odd = tmp_path / "dir with 'quote' $(x) 中文"
    odd.mkdir()
    env = {"WB_A": "value with $(id) `id` 'q' \"dq\"\nnext", "WB_B": "中文"}
    result = transport.run(
        ["bash", "-c", 'printf "%s\\0" "$PWD" "$WB_A" "$WB_B" "$ASCEND_RT_VISIBLE_DEVICES"'],
        cwd=str(odd),
        env=env,
        devices=[0, 3],
    )
    assert result.stdout.split("\0")[:-1] == [str(odd), env["WB_A"], env["WB_B"], "0,3"]


def test_toolkit_set_env_is_sourced_with_bash(transport, tmp_path):
    tk = tmp_path / "tk dir"
    tk.mkdir()
    # `source` and [[ ]] are bash-only: this fails under sh/dash.
    (tk / "set_env.sh").write_text('[[ -n "$BASH_VERSION" ]] && export WB_TOOLKIT_OK="yes from $BASH_VERSION"\n')
    result = transport.run(["bash", "-c", 'echo "$WB_TOOLKIT_OK"'], toolkit=str(tk))
    assert result.stdout.startswith("yes from ")
    missing = transport.run(["true"], toolkit=str(tmp_path / "missing"))
    assert missing.exit_status != 0 and "set_env.sh" in missing.stderr
    # CANN <= 8.3: set_env.sh sits beside latest/, one level up.
    (tk / "latest").mkdir()
    assert transport.run(["bash", "-c", 'echo "$WB_TOOLKIT_OK"'], toolkit=str(tk / "latest")).stdout.startswith("yes")


def test_exit_status_and_stderr(transport):
    result = transport.run(["bash", "-c", "echo out; echo err >&2; exit 42"])
    assert (result.exit_status, result.stdout, result.stderr) == (42, "out\n", "err\n")
    with pytest.raises(Exception) as err:
        result.check()
    assert "42" in str(err.value) and "err" in str(err.value)


def test_lines_stream_as_they_arrive_in_order(transport, tmp_path):
    # Each step waits until we have *received* the previous line: proof of streaming, and an
    # arrival order that sshd cannot blur (it may forward simultaneous stdout/stderr either way).
    g1, g2 = tmp_path / "g1", tmp_path / "g2"
    gates = {("stdout", "first\n"): g1, ("stderr", "second\n"): g2}
    script = (
        f"echo first; while [ ! -e {g1} ]; do sleep 0.02; done; echo second >&2; "
        f"while [ ! -e {g2} ]; do sleep 0.02; done; echo third; printf tail"
    )
    progress = RecordingProgress()
    original = progress.partial

    def partial(item):
        original(item)
        if item in gates:
            gates[item].touch()

    progress.partial = partial
    result = transport.run(["bash", "-c", script], progress=progress, timeout=60)
    assert iter_lines(progress.events) == [
        ("stdout", "first\n"),
        ("stderr", "second\n"),
        ("stdout", "third\n"),
        ("stdout", "tail"),
    ]
    assert (result.stdout, result.stderr) == ("first\nthird\ntail", "second\n")


def test_many_lines_keep_their_order_per_stream(transport):
    result = transport.run(["bash", "-c", "for i in $(seq 20000); do echo out$i; echo err$i >&2; done"])
    assert result.stdout.splitlines() == [f"out{i}" for i in range(1, 20001)]
    assert result.stderr.splitlines() == [f"err{i}" for i in range(1, 20001)]


def test_cancel_kills_the_whole_process_group(transport):
    progress = RecordingProgress()
    cancel = CancelToken()
    seen = []
    original = progress.partial

    def partial(item):
        original(item)
        if item[0] == "stdout" and item[1].strip().isdigit():
            seen.append(int(item[1]))
            cancel.cancel()

    progress.partial = partial
    # $$ of the exec'd bash is the group leader's pid; children sleep in the same group.
    with pytest.raises(Cancelled):
        transport.run(
            ["bash", "-c", "sleep 300 & sleep 300 & echo $$; wait"], progress=progress, cancel=cancel, timeout=120
        )
    assert seen and not _group_alive(seen[0])


def test_timeout_kills_the_group_and_says_so(transport):
    progress = RecordingProgress()
    with pytest.raises(RunTimeout) as err:
        transport.run(["bash", "-c", "echo $$; sleep 300 & wait"], timeout=0.5, progress=progress)
    pgid = int(iter_lines(progress.events)[0][1])
    assert "0.5 s" in str(err.value) and not _group_alive(pgid)


def test_script_never_uses_sh_and_quotes_everything():
    script = build_script(["a b", "$(x)"], cwd="/x y", env={"K": "v w"}, toolkit="/t k", devices=[1])
    assert "'/t k/set_env.sh' '/t k/../set_env.sh'" in script and "cd -- '/x y'" in script
    assert "source '/t k/env.sh'" in build_script(["x"], toolkit="/t k/env.sh")
    assert "exec 'a b' '$(x)'" in script and "ASCEND_RT_VISIBLE_DEVICES=1" in script
    with pytest.raises(ValueError):
        build_script(["x"], env={"BAD NAME": "1"})
    with pytest.raises(ValueError):
        build_script([])


def test_local_kill_of_a_finished_group_is_harmless():
    proc = subprocess.Popen(["true"], start_new_session=True)
    proc.wait()
    kill_local_group(proc.pid)


# --- the server dies ------------------------------------------------------------------------


def test_sshd_killed_mid_command_then_reconnect(ssh_transport, sshd_server):
    progress = RecordingProgress()
    pgids = []
    original = progress.partial

    def partial(item):
        original(item)
        if item[0] == "stdout" and item[1].strip().isdigit():
            pgids.append(int(item[1]))
            sshd_server.kill()

    progress.partial = partial
    try:
        with pytest.raises(ConnectionLost) as err:
            ssh_transport.run(["bash", "-c", "echo $$; sleep 300"], progress=progress, timeout=120)
        assert "loopback" in str(err.value) and "connection was lost" in str(err.value)
        assert not ssh_transport.connected
        sshd_server.start()
        assert ssh_transport.run(["echo", "back"]).stdout == "back\n"
    finally:
        sshd_server.start()
        for pgid in pgids:  # the orphaned remote command (no session to hang up on it)
            kill_local_group(pgid, grace=0.2)


def test_reconnects_after_a_silent_drop(ssh_transport, sshd_server):
    assert ssh_transport.run(["true"]).ok
    sshd_server.kill()
    sshd_server.start()
    # The old connection is dead; the first call may report it, the next one works.
    try:
        result = ssh_transport.run(["echo", "ok"])
    except ConnectionLost:
        result = ssh_transport.run(["echo", "ok"])
    assert result.stdout == "ok\n"


def test_local_transport_is_its_own_group(tmp_path):
    result = LocalTransport().run(["bash", "-c", "ps -o pgid= -p $$; echo $$"])
    pgid, pid = (int(x) for x in result.stdout.split())
    assert pgid == pid != os.getpgid(0)


def test_files_api_on_both(transport, tmp_path):
    base = str(tmp_path / "f")
    transport.mkdir(base + "/a/b")
    transport.write_text(base + "/a/b/t.txt", "héllo\n")
    assert transport.read_text(base + "/a/b/t.txt") == "héllo\n"
    assert transport.exists(base + "/a") and transport.is_dir(base + "/a")
    assert not transport.exists(base + "/zz")
    assert transport.listdir(base + "/a") == ["b"]
    tree = transport.list_tree(base)
    assert set(tree) == {"a", "a/b", "a/b/t.txt"} and tree["a/b/t.txt"].size == len("héllo\n".encode())
    transport.set_mtime(base + "/a/b/t.txt", 1_600_000_000)
    assert int(transport.stat(base + "/a/b/t.txt").mtime) == 1_600_000_000
    assert Path(base, "a/b/t.txt").stat().st_mtime == 1_600_000_000
    transport.remove(base + "/a/b/t.txt")
    assert not Path(base, "a/b/t.txt").exists()
    with pytest.raises(FileNotFoundError):
        transport.stat(base + "/missing")
    assert transport.home()


def test_toolkit_install_root_and_its_folders_are_sourced(transport, tmp_path):
    """`toolkit=` may name the install root (/usr/local/Ascend), ascend-toolkit/, latest, a versioned
    folder (CANN <= 8.3) or the 8.5 root's parent: each finds its set_env.sh (docs/cann-formats.md §8.2)."""
    old = tmp_path / "Ascend"
    (old / "ascend-toolkit" / "7.0.0").mkdir(parents=True)
    (old / "ascend-toolkit" / "latest").symlink_to("7.0.0")
    (old / "ascend-toolkit" / "set_env.sh").write_text("export WB_TK=ascend-toolkit\n")
    new = tmp_path / "Ascend85"
    (new / "cann").mkdir(parents=True)
    (new / "cann" / "set_env.sh").write_text("export WB_TK=cann\n")
    forms = {
        old: "ascend-toolkit",
        old / "ascend-toolkit": "ascend-toolkit",
        old / "ascend-toolkit" / "latest": "ascend-toolkit",
        old / "ascend-toolkit" / "7.0.0": "ascend-toolkit",
        new: "cann",
        new / "cann": "cann",
    }
    for given, expected in forms.items():
        result = transport.run(["bash", "-c", 'echo "$WB_TK"'], toolkit=str(given))
        assert (result.exit_status, result.stdout) == (0, expected + "\n"), (given, result.stderr)
    missing = transport.run(["true"], toolkit=str(tmp_path / "none"))
    assert missing.exit_status == 1 and missing.stderr.strip() == (
        f"no set_env.sh in {tmp_path / 'none'}, its parent folder, {tmp_path / 'none'}/ascend-toolkit or "
        f"{tmp_path / 'none'}/cann"
    )


def test_cancel_output_is_the_commands_own(transport):
    """Stop (cancel) shows what the command printed, not the wrapper's complaint about the kill."""
    progress = RecordingProgress()
    cancel = CancelToken()
    original = progress.partial

    def partial(item):
        original(item)
        if item == ("stdout", "started\n"):
            cancel.cancel()

    progress.partial = partial
    with pytest.raises(Cancelled):
        transport.run(["bash", "-c", "echo started; exec sleep 300"], progress=progress, cancel=cancel, timeout=120)
    assert iter_lines(progress.events) == [("stdout", "started\n")]


def test_error_reasons_are_words_not_class_names():
    assert reason(EOFError()) == "the host closed the connection"
    assert reason(ConnectionResetError(104, "Connection reset by peer")) == "Connection reset by peer"
    assert (
        reason(NotADirectoryError(20, "exists and is not a folder", "/x/sub")) == "exists and is not a folder: /x/sub"
    )
    assert reason(ValueError("bad value")) == "bad value" and reason(RuntimeError()) == "no reason given"
