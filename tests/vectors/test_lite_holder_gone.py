"""A cold process that meets the published server of a holder that is exiting: it waits for the store to come free
and holds it itself, instead of failing with "is the server at --milvus-uri running" (seen in bench/search_crash_loop.py:
2 searches in 287, exit 1, while the search that held the store shut down)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from pipeline.config import load_settings
from pipeline.vectors import milvus

# A holder in the middle of its shutdown: it holds the store's LOCK and has published a port that answers the first
# knock (the liveness probe), then stops listening before the gRPC connection comes, and exits a few seconds later.
HOLDER = """
import fcntl, json, os, socket, sys, time
lock = open(sys.argv[1], "a+")
fcntl.flock(lock, fcntl.LOCK_EX)
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(1)
with open(sys.argv[2], "w") as fh:
    json.dump({"pid": os.getpid(), "port": server.getsockname()[1], "store": sys.argv[3]}, fh)
print("holding", flush=True)
probe, _ = server.accept()
probe.close()
server.close()
time.sleep(float(sys.argv[4]))
"""


def test_a_holder_whose_server_is_gone_is_waited_for_not_blamed(tmp_path):
    settings = load_settings(data_dir=tmp_path / "data")
    with milvus.connect(settings) as client:
        assert client.list_collections() == []  # creates the store (and its LOCK file)
    store = milvus.lite_path(settings)
    port_file = store.with_name(store.name + ".port")
    assert not port_file.exists()  # the holder took its port file away
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(store / "LOCK"), str(port_file), os.path.realpath(store),
                               "3"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "holding"
        t0 = time.monotonic()
        with milvus.connect(settings) as client:
            assert client.list_collections() == []  # served by this process once the holder was gone
            assert client.opened and client.paperbase_lite_opened
        assert time.monotonic() - t0 >= 1  # it did meet the dead port first
        assert holder.poll() is not None
        assert not port_file.exists() or json.loads(port_file.read_text())["pid"] != holder.pid
    finally:
        holder.kill()
        holder.wait()


# A real holder: opens the store (publishing its server's port), says so, and lets go when told (a line on stdin).
REAL_HOLDER = """
import sys
from pipeline.config import load_settings
from pipeline.vectors import milvus
with milvus.connect(load_settings(data_dir=sys.argv[1])) as client:
    client.open()
    print("holding", flush=True)
    sys.stdin.readline()
"""


def test_a_read_whose_holder_exits_under_it_is_read_again_from_the_store(tmp_path):
    settings = load_settings(data_dir=tmp_path / "data")
    with milvus.connect(settings) as client:
        assert client.list_collections() == []
    holder = subprocess.Popen([sys.executable, "-c", REAL_HOLDER, str(settings.data_dir)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=os.path.dirname(os.path.dirname(__file__)) + "/..")
    try:
        assert holder.stdout.readline().strip() == "holding"
        with milvus.connect(settings) as client:
            assert client.list_collections() == []
            assert client.opened and not client.paperbase_lite_opened  # answered by the holder's server
            holder.stdin.write("\n")
            holder.stdin.flush()
            assert holder.wait(timeout=60) == 0
            assert client.list_collections() == []  # the holder's server is gone: read again, from the store itself
            assert client.paperbase_lite_opened
    finally:
        holder.kill()
        holder.wait()
