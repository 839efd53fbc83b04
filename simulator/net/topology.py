"""Topologies as graphs of duplex links, with deterministic shortest-path routes.

A Topology holds named nodes and duplex links (each one two one-way links of a Network: rate in
bit/s, propagation delay in s, buffer in packets).  Builders give the shapes the studies use:
linear chain, star, mesh, parking lot, dumbbell and an access-point network (hosts on wired or
wireless hops to one router).  Routes are static shortest paths (Dijkstra on propagation delay,
ties broken by hop count and then by node name, so they never depend on dict or set order).
"""
from dataclasses import dataclass, field
import heapq


@dataclass
class LinkSpec:
    """One duplex link: the same rate, delay and buffer in both directions unless the b -> a direction has a rate
    or buffer of its own (reverse_rate_bps, reverse_buffer_pkts: an asymmetric access or satellite link)."""
    a: str
    b: str
    rate_bps: float
    delay: float
    buffer_pkts: int
    kind: str = "wired"                 # wired | wireless (impairments attach to wireless hops)
    reverse_rate_bps: float = None      # b -> a (None: rate_bps)
    reverse_buffer_pkts: int = None     # b -> a (None: buffer_pkts)

    def rate(self, direction):
        """Bit/s of direction 0 (a -> b) or 1 (b -> a)."""
        return self.reverse_rate_bps if direction and self.reverse_rate_bps is not None else self.rate_bps

    def buffer(self, direction):
        """Packets of buffer of direction 0 (a -> b) or 1 (b -> a)."""
        return self.reverse_buffer_pkts if direction and self.reverse_buffer_pkts is not None else self.buffer_pkts

    def check(self):
        if min(self.rate(0), self.rate(1)) <= 0 or self.delay < 0 or min(self.buffer(0), self.buffer(1)) < 0:
            raise ValueError(f"link {self.a}-{self.b}: need rate > 0 bit/s, delay >= 0 s, buffer >= 0 packets "
                             f"(got {self.rate(0)} and {self.rate(1)}, {self.delay}, {self.buffer(0)} and {self.buffer(1)})")


@dataclass
class Topology:
    name: str
    hosts: list = field(default_factory=list)       # end points: flows start and end here
    routers: list = field(default_factory=list)
    links: list = field(default_factory=list)       # LinkSpec

    @property
    def nodes(self):
        return self.hosts + self.routers

    def add_link(self, a, b, rate_bps, delay, buffer_pkts, kind="wired", reverse_rate_bps=None,
                 reverse_buffer_pkts=None):
        for n in (a, b):
            if n not in self.nodes:
                raise ValueError(f"topology {self.name}: link {a}-{b} names unknown node {n!r}; "
                                 f"allowed: {', '.join(self.nodes)}")
        spec = LinkSpec(a, b, float(rate_bps), float(delay), int(buffer_pkts), kind,
                        None if reverse_rate_bps is None else float(reverse_rate_bps),
                        None if reverse_buffer_pkts is None else int(reverse_buffer_pkts))
        spec.check()
        self.links.append(spec)
        return spec

    # ---------------------------------------------------------------- routing
    def neighbours(self):
        adj = {n: [] for n in self.nodes}
        for i, l in enumerate(self.links):
            adj[l.a].append((l.b, i, l.delay))
            adj[l.b].append((l.a, i, l.delay))
        return adj

    def path(self, src, dst):
        """Nodes on the shortest path from src to dst (delay, then hops, then names)."""
        for n in (src, dst):
            if n not in self.nodes:
                raise ValueError(f"topology {self.name}: unknown node {n!r}; allowed: {', '.join(self.nodes)}")
        adj = self.neighbours()
        best = {src: (0.0, 0, [src])}
        heap = [(0.0, 0, [src])]
        while heap:
            d, hops, p = heapq.heappop(heap)
            node = p[-1]
            if node == dst:
                return p
            if best.get(node, (None,))[0] is not None and (d, hops, p) > best[node]:
                continue
            for nxt, _, delay in sorted(adj[node]):
                cand = (d + delay, hops + 1, p + [nxt])
                if nxt not in best or cand < best[nxt]:
                    best[nxt] = cand
                    heapq.heappush(heap, cand)
        raise ValueError(f"topology {self.name}: no path from {src!r} to {dst!r}")

    def hops(self, src, dst):
        """(link index, direction) per hop: direction 0 = a->b, 1 = b->a."""
        return self.hops_along(self.path(src, dst))

    def hops_along(self, nodes):
        """(link index, direction) per hop of a path given as its nodes; ValueError if two are not linked."""
        out = []
        for u, v in zip(nodes, nodes[1:]):
            found = [i for i, l in enumerate(self.links) if {l.a, l.b} == {u, v}]
            if not found:
                raise ValueError(f"topology {self.name}: route {' -> '.join(nodes)}: no link between {u!r} and {v!r}")
            out.append((found[0], 0 if self.links[found[0]].a == u else 1))
        return out

    def install(self, network):
        """Add every link to an empty Network (two one-way links each, a->b then b->a, in link
        order, so link i's ids are 2i and 2i + 1: see link_id); returns {(index, dir): link id}."""
        ids = {}
        for i, l in enumerate(self.links):
            for d in (0, 1):
                ids[(i, d)] = network.add_link(l.rate(d), l.delay, l.buffer(d))
                if ids[(i, d)] != 2 * i + d:
                    raise ValueError(f"topology {self.name}: install it on an empty network")
        return ids

    def link_id(self, a, b) -> int:
        """Network id of the one-way link a -> b once installed (known before: scenarios attach
        queues and impairments to links by id in the flow model's constructor)."""
        for i, l in enumerate(self.links):
            if (l.a, l.b) == (a, b):
                return 2 * i
            if (l.a, l.b) == (b, a):
                return 2 * i + 1
        raise ValueError(f"{a!r}-{b!r} is not a link of topology {self.name}")

    def link_ids(self, kind=None) -> list:
        """Network ids of every one-way link (of `kind` only, if given), in link order."""
        return [2 * i + d for i, l in enumerate(self.links) if kind in (None, l.kind) for d in (0, 1)]


# -------------------------------------------------------------------- builders
def chain(n_routers, rate_bps, delay, buffer_pkts, access_bps=None, access_delay=0.0):
    """Linear: h0 - r0 - r1 - ... - r{n-1} - h1."""
    t = Topology("chain", hosts=["h0", "h1"], routers=[f"r{i}" for i in range(n_routers)])
    access = access_bps or rate_bps
    t.add_link("h0", "r0", access, access_delay, buffer_pkts)
    for i in range(n_routers - 1):
        t.add_link(f"r{i}", f"r{i + 1}", rate_bps, delay, buffer_pkts)
    t.add_link(f"r{n_routers - 1}", "h1", access, access_delay, buffer_pkts)
    return t


def star(n_hosts, rate_bps, delay, buffer_pkts):
    """Star: hosts h0..h{n-1} around one router (every path crosses it)."""
    t = Topology("star", hosts=[f"h{i}" for i in range(n_hosts)], routers=["r0"])
    for h in t.hosts:
        t.add_link(h, "r0", rate_bps, delay, buffer_pkts)
    return t


def mesh(n_routers, rate_bps, delay, buffer_pkts, hosts_per_router=1):
    """Full mesh of routers, each with its own hosts (several paths between any two routers;
    shortest-path routing uses the direct one)."""
    routers = [f"r{i}" for i in range(n_routers)]
    hosts = [f"h{i}_{j}" for i in range(n_routers) for j in range(hosts_per_router)]
    t = Topology("mesh", hosts=hosts, routers=routers)
    for i in range(n_routers):
        for j in range(i + 1, n_routers):
            t.add_link(routers[i], routers[j], rate_bps, delay, buffer_pkts)
        for j in range(hosts_per_router):
            t.add_link(f"h{i}_{j}", routers[i], rate_bps, delay, buffer_pkts)
    return t


def parking_lot(n_hops, rate_bps, delay, buffer_pkts, access_bps=None, access_delay=0.0):
    """Routers r0..r{n}; the long flow goes h_long_src -> r0 ... r{n} -> h_long_dst, and cross
    hosts c{i}_src/c{i}_dst attach to r{i}/r{i+1} so each hop has one cross flow."""
    t = Topology("parking_lot", hosts=["long_src", "long_dst"], routers=[f"r{i}" for i in range(n_hops + 1)])
    access = access_bps or rate_bps
    t.add_link("long_src", "r0", access, access_delay, buffer_pkts)
    t.add_link(f"r{n_hops}", "long_dst", access, access_delay, buffer_pkts)
    for i in range(n_hops):
        t.add_link(f"r{i}", f"r{i + 1}", rate_bps, delay, buffer_pkts)
        t.hosts += [f"c{i}_src", f"c{i}_dst"]
        t.add_link(f"c{i}_src", f"r{i}", access, access_delay, buffer_pkts)
        t.add_link(f"c{i}_dst", f"r{i + 1}", access, access_delay, buffer_pkts)
    return t


def dumbbell(n_pairs, rate_bps, delay, buffer_pkts, access_bps, access_delay, access_buffer=1 << 20):
    """N senders s{i} - R1 == bottleneck == R2 - receivers d{i}."""
    t = Topology("dumbbell", hosts=[f"s{i}" for i in range(n_pairs)] + [f"d{i}" for i in range(n_pairs)],
                 routers=["R1", "R2"])
    t.add_link("R1", "R2", rate_bps, delay, buffer_pkts)
    for i in range(n_pairs):
        t.add_link(f"s{i}", "R1", access_bps, access_delay, access_buffer)
        t.add_link(f"d{i}", "R2", access_bps, access_delay, access_buffer)
    return t


def access_point(wired_hosts, wireless_hosts, wired_bps, wireless_bps, wired_delay, wireless_delay,
                 buffer_pkts):
    """One router with hosts on wired and wireless hops (the testbed's home network); wireless
    links are marked kind='wireless' so loss, jitter and capacity changes can attach to them."""
    t = Topology("access_point", hosts=list(wired_hosts) + list(wireless_hosts), routers=["ap"])
    for h in wired_hosts:
        t.add_link(h, "ap", wired_bps, wired_delay, buffer_pkts, "wired")
    for h in wireless_hosts:
        t.add_link(h, "ap", wireless_bps, wireless_delay, buffer_pkts, "wireless")
    return t


BUILDERS = {"chain": chain, "star": star, "mesh": mesh, "parking_lot": parking_lot,
            "dumbbell": dumbbell, "access_point": access_point}
