"""The hosts a user lists for fetch_url on their own network (Settings › Permissions): what is taken, what refused."""

from __future__ import annotations

from hermes_desktop.core.tools.network import parse_private_hosts


def test_hosts_and_ports_are_taken_lower_cased_once() -> None:
    hosts, bad = parse_private_hosts("NAS.local, 192.168.1.5:8080 nas.local\n[::1]:11434, router")
    assert hosts == ("nas.local", "192.168.1.5:8080", "[::1]:11434", "router") and bad == []


def test_anything_that_is_not_a_host_is_refused_as_written() -> None:
    hosts, bad = parse_private_hosts("http://nas.local/, a..b, localhost:99999, under_score, host:0, -x.local, ok")
    assert hosts == ("ok",)
    assert bad == ["http://nas.local/", "a..b", "localhost:99999", "under_score", "host:0", "-x.local"]
    assert parse_private_hosts("   ,  ") == ((), [])
