"""What `bench serve` records besides wrk's summary: each request's latency and when it ended, and
how the load spread over the workers, to show what a latency tail is made of.

wrk's own summary has latency percentiles for the whole run only. The Lua script here also times
each request on the client (LuaJIT's FFI reads CLOCK_MONOTONIC, the clock of Python's
`time.monotonic`, so both sides share one time line). A wrk thread has no handle on which of its
connections answered, so each request carries an `X-Request-Id` (thread and number) that the
server hands back on the answer, and the answer is paired with its request's start by it.
(Pairing by query text undercounted the tail: while one worker stalled, the other's connections
sent the same query again before the stalled answer came, and its start was written over.)
Every request stays in the headline figures; the timeline only splits them by when they ended.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

WINDOW_S = 5  # the timeline's step

_LUA = r"""
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock, bench_timespec *tp);
]]
local clock = ffi.new("bench_timespec")
local function now()
  ffi.C.clock_gettime(1, clock)  -- CLOCK_MONOTONIC
  return tonumber(clock.tv_sec) + tonumber(clock.tv_nsec) * 1e-9
end

local paths = {
PATHS
}
local threads = {}
local counter = 1
function setup(thread)
  thread:set("id", counter)
  table.insert(threads, thread)
  counter = counter + 1
end
function init(args)
  malformed = 0
  checked = 0
  unmatched = 0
  trace = {}
  started = {}
  n = 0
  -- Threads start evenly apart in the list, so no two threads send the same queries together.
  i = (id - 1) * math.floor(#paths / THREADS)
end
function request()
  i = i + 1
  n = n + 1
  started[n] = now()
  return wrk.format("GET", paths[(i % #paths) + 1], {["X-Request-Id"] = id .. "-" .. n})
end
function response(status, headers, body)
  local t = now()
  checked = checked + 1
  if status ~= 200 or string.sub(body, 1, 9) ~= '{"query":' or not string.find(body, '"results":[', 1, true) then
    malformed = malformed + 1
  end
  local given = headers["x-request-id"] or headers["X-Request-Id"]
  local r = given and tonumber(string.match(given, "^" .. id .. "%-(%d+)$"))
  local t0 = r and started[r]
  if t0 then
    trace[#trace + 1] = string.format("%.4f %.3f", t, (t - t0) * 1000)
    started[r] = nil
  else
    unmatched = unmatched + 1
  end
end
function done(summary, latency, requests)
  local malformed, checked, unmatched = 0, 0, 0
  local out = io.open(TRACE_PATH, "w")
  for _, t in ipairs(threads) do
    malformed = malformed + t:get("malformed")
    checked = checked + t:get("checked")
    unmatched = unmatched + t:get("unmatched")
    for _, line in ipairs(t:get("trace")) do
      out:write(line, "\n")
    end
  end
  out:close()
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p95_us":%d,"p99_us":%d,' ..
    '"max_us":%d,"connect_errors":%d,"read_errors":%d,"write_errors":%d,"status_errors":%d,' ..
    '"timeouts":%d,"malformed":%d,"checked":%d,"unmatched":%d}\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(95),
    latency:percentile(99), latency.max, e.connect, e.read, e.write, e.status, e.timeout, malformed, checked,
    unmatched))
end
"""


def wrk_script(queries: Sequence[str], k: int, mode: str, *, threads: int, trace_path: Path) -> str:
    """The Lua script for wrk: the request paths, the answer check and the per-request trace."""
    paths = [f"/search?{httpx.QueryParams({'q': q, 'k': k, 'mode': mode})}" for q in queries]
    return (
        _LUA.replace("PATHS", ",\n".join(json.dumps(p) for p in paths))  # JSON strings are Lua strings here
        .replace("THREADS", str(threads))
        .replace("TRACE_PATH", json.dumps(str(trace_path)))
    )


def read_trace(path: Path, origin: float) -> list[tuple[float, float]]:
    """(seconds since `origin` when the answer came, latency in ms) per matched request, in time order."""
    rows = []
    for line in path.read_text().splitlines():
        end, ms = line.split()
        rows.append((float(end) - origin, float(ms)))
    rows.sort()
    return rows


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile, 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def _summary(latencies: Sequence[float]) -> dict[str, Any]:
    return {
        "requests": len(latencies),
        "p50_ms": round(percentile(latencies, 50), 1),
        "p95_ms": round(percentile(latencies, 95), 1),
        "max_ms": round(max(latencies, default=0.0), 1),
    }


def tail_report(
    rows: Sequence[tuple[float, float]], rebuild: tuple[float, float] | None, duration: float
) -> dict[str, Any]:
    """The latencies split by when their answer came: in `WINDOW_S`-second steps, and inside or
    outside the rebuild window (`rebuild`: its start and end in seconds since the load began)."""
    timeline = []
    for start in range(0, int(duration + 0.999), WINDOW_S):
        inside = [ms for end, ms in rows if start <= end < start + WINDOW_S]
        timeline.append({"from_s": start, **_summary(inside)})
    report: dict[str, Any] = {"matched": len(rows), "all": _summary([ms for _, ms in rows])}
    report["timeline"] = timeline
    if rebuild is not None:
        low, high = rebuild
        report["rebuild_window_s"] = [round(low, 1), round(high, 1)]
        report["inside_rebuild"] = _summary([ms for end, ms in rows if low <= end <= high])
        report["outside_rebuild"] = _summary([ms for end, ms in rows if not low <= end <= high])
    return report


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    try:
        for fd in os.scandir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(fd.path)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    except OSError:
        pass
    return inodes


def connections_by_worker(pids: Sequence[int], port: int) -> list[int]:
    """Established TCP connections to `port` that each process holds (read from /proc; [] elsewhere)."""
    established = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01":  # 01: ESTABLISHED
                established.add(fields[9])
    return [len(_socket_inodes(pid) & established) for pid in pids]
