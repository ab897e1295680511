"""What saturation.sh and rate-accuracy.sh read from a run's measured intervals about its load threads and hosts.

stall: the load threads' longest late wake-up from a park (hosts.stallMicrosMax; absent before result schema 11);
an interval is "stalled" when it is saturated and a load thread woke 10 ms or more late in it. The host's CPU
(hosts.hostBusyMax, hostStealMax; schema 12): how busy the busiest worker host was, every process counted (the
broker, the coordinator, the workers), over the window and over the stalled intervals, and the most its
hypervisor stole in an interval.
"""

STALLED_MICROS = 10_000


def stall(i):
    return (i.get("hosts") or {}).get("stallMicrosMax", -1)


def stalled(i):
    return i["saturated"] and stall(i) >= STALLED_MICROS


def figures(measured):
    """(stalled count, longest stall or "-" in ms, "busy all / stalled" in %, steal max in % or "-")."""
    longest = max([stall(i) for i in measured] + [-1])

    def host(i, key):
        return (i.get("hosts") or {}).get(key)

    def pct(values):
        v = [x for x in values if x is not None]
        return "-" if not v else "%.0f%%" % (100.0 * sum(v) / len(v))

    busy = pct([host(i, "hostBusyMax") for i in measured]) + " / " + pct(
        [host(i, "hostBusyMax") for i in measured if stalled(i)])
    steals = [host(i, "hostStealMax") for i in measured if host(i, "hostStealMax") is not None]
    return (sum(1 for i in measured if stalled(i)) if longest >= 0 else "-",
            "%.1f" % (longest / 1000.0) if longest >= 0 else "-", busy,
            "%.1f%%" % (100.0 * max(steals)) if steals else "-")
