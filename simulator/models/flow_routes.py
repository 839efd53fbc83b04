"""Links and routes of the flow model's network: the built-in dumbbell, or any Topology.

Kept apart from the event loop (simulator/models/flow_model.pyx): these run once, before the
first event, and only call the network's Python-level set-up methods (add_link, set_route).
"""


def build_dumbbell(net, kinds, n, bottleneck_bps, bottleneck_delay, buffer_pkts, access_bps, access_delay,
                   extra_delays=None):
    """sender_i --access--> R1 ==bottleneck==> R2 --access--> receiver_i and back; the bottleneck's
    (forward, reverse) link ids. `kinds`: the network's (data, ACK) packet kinds; `extra_delays`
    (s, one per flow, or None) lengthen flow i's sender access link both ways, so flows differ in
    RTT. Link ids are assigned in this order (it fixes event tie-breaks)."""
    data, ack = kinds
    big = 1 << 20      # access links and the reverse path never drop in this scenario
    fwd = net.add_link(bottleneck_bps, bottleneck_delay, buffer_pkts)
    rev = net.add_link(bottleneck_bps, bottleneck_delay, big)
    for i in range(n):
        sender_side = access_delay + (extra_delays[i] if extra_delays is not None else 0.0)
        a_in = net.add_link(access_bps, sender_side, big)
        a_out = net.add_link(access_bps, access_delay, big)
        b_in = net.add_link(access_bps, access_delay, big)
        b_out = net.add_link(access_bps, sender_side, big)
        net.set_route(i, data, [a_in, fwd, a_out])
        net.set_route(i, ack, [b_in, rev, b_out])
    return fwd, rev


def build_topology(net, kinds, topology, ends, monitor):
    """Install `topology` (simulator/net/topology.py) and route flow i from ends[i][0] to ends[i][1]
    on shortest paths (ACKs back); `monitor` (a, b) names the link whose queue is sampled and whose
    rate/delay a schedule changes (default: the first flow's second hop). Returns (link ids, the
    monitored link's forward id, its reverse id)."""
    data, ack = kinds
    ids = topology.install(net)
    for i, (src, dst) in enumerate(ends):
        net.set_route(i, data, [ids[h] for h in topology.hops(src, dst)])
        net.set_route(i, ack, [ids[h] for h in topology.hops(dst, src)])
    a, b = monitor if monitor is not None else tuple(topology.path(*ends[0])[1:3])
    matches = [i for i, l in enumerate(topology.links) if (l.a, l.b) in ((a, b), (b, a))]
    if not matches:
        raise ValueError(f"monitor {a!r}-{b!r} is not a link of topology {topology.name}")
    d = 0 if topology.links[matches[0]].a == a else 1
    return ids, ids[(matches[0], d)], ids[(matches[0], 1 - d)]



