// Open-loop dumbbell driver for htsim (our benchmark aid, not part of htsim): TCP flows (htsim's own
// TcpSrc/TcpSink, unchanged) arrive at the times of a trace and cross one FIFO DropTail bottleneck;
// prints one line per completed flow and a summary.  Used by benchmarks/htsim_openloop.py.
// Written against htsim's sim/ library as of Broadcom/csg-htsim 841d9e7be46bb968eece766aa4b6c044c7799f67
// (compiled there against libhtsim.a and its headers; none of htsim's code is in this repository).
//
//   main_openloop TRACE.csv [-rate_mbps 1000] [-delay_ms 10] [-buffer_pkts 1667] [-pkt 1500] [-mss 1446]
//                 [-duration 60] [-access_gbps 10] [-access_delay_us 10] [-rto_scan_ms 10]
//                 [-iw_pkts 10] [-ssthresh_pkts 100]
// TRACE.csv: `start_s,size_bytes` per line, starts not decreasing (a first line that is not a number is a header).
// A flow of S bytes sends ceil(S / mss) data packets of `pkt` wire bytes (htsim sends only full-size packets;
// its sequence space counts `pkt` bytes per packet).  Its FCT runs from its start (the SYN is sent then) to the
// ACK of its last packet at the sender.  Topology: all senders share one access link (access_gbps, access_delay_us)
// into the bottleneck queue (rate_mbps, buffer_pkts * pkt bytes, the packet in service included), the bottleneck's
// pipe (delay_ms), then a receiver access link; ACKs come back over the mirror links (40-byte htsim ACKs), whose
// queues never fill.  access_gbps 0: no access links.  -iw_pkts and -ssthresh_pkts default to htsim's own values.
// Output: `flow id start_s size_bytes pkts fct_s fct_from_synack_s` per completed flow, then `summary k=v ...`.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>
#include "config.h"
#include "eventlist.h"
#include "network.h"
#include "pipe.h"
#include "queue.h"
#include "route.h"
#include "tcp.h"

struct FlowSpec { double start; uint64_t size; };

// A TcpSrc that notes when its last packet is ACKed (htsim's own check only prints to cout).
class OpenLoopTcpSrc : public TcpSrc {
public:
    OpenLoopTcpSrc(EventList& ev, size_t id, uint64_t pkts)
        : TcpSrc(NULL, NULL, ev), id(id), pkts(pkts) {
        _flow_size = (pkts - 1) * _mss;                  // TcpSrc sends while _highest_sent <= _flow_size + 1
    }
    void receivePacket(Packet& pkt) override {
        uint64_t ackno = ((TcpAck&)pkt).ackno();         // read before TcpSrc frees the packet
        TcpSrc::receivePacket(pkt);
        simtime_picosec now = eventlist().now();
        if (ackno == 1 && established_at == 0) established_at = now;
        if (!done && ackno >= 1 + pkts * _mss) { done = true; finished_at = now; newly_done.push_back(this); }
    }
    size_t id;
    uint64_t pkts;
    bool done = false;
    simtime_picosec established_at = 0, finished_at = 0;
    static std::vector<OpenLoopTcpSrc*> newly_done;
};
std::vector<OpenLoopTcpSrc*> OpenLoopTcpSrc::newly_done;

// Counts data packets reaching the receivers (retransmissions and duplicates included).
class CountingTcpSink : public TcpSink {
public:
    void receivePacket(Packet& pkt) override { if (pkt.size() > 1) rx_data++; TcpSink::receivePacket(pkt); }
    static uint64_t rx_data;
};
uint64_t CountingTcpSink::rx_data = 0;

// htsim's TcpRtxTimerScanner, but scanning only the flows not yet finished (its list only grows).
class ActiveRtxScanner : public EventSource {
public:
    ActiveRtxScanner(simtime_picosec period, EventList& ev) : EventSource(ev, "ActiveRtxScanner"), _period(period) {
        ev.sourceIsPendingRel(*this, period);
    }
    void add(OpenLoopTcpSrc* s) { _tcps.push_back(s); }
    void doNextEvent() override {
        simtime_picosec now = eventlist().now();
        size_t k = 0;
        for (OpenLoopTcpSrc* s : _tcps) {
            if (s->done) continue;
            s->rtx_timer_hook(now, _period);
            _tcps[k++] = s;
        }
        _tcps.resize(k);
        eventlist().sourceIsPendingRel(*this, _period);
    }
private:
    simtime_picosec _period;
    std::vector<OpenLoopTcpSrc*> _tcps;
};

// Starts the trace's flows at their times, each with its own TcpSrc/TcpSink and routes over the shared links.
class Arrivals : public EventSource {
public:
    Arrivals(EventList& ev, const std::vector<FlowSpec>& flows, std::vector<PacketSink*> fwd,
             std::vector<PacketSink*> rev, uint64_t payload, ActiveRtxScanner& scanner, uint32_t iw, uint32_t ssthresh)
        : EventSource(ev, "Arrivals"), _flows(flows), _fwd(fwd), _rev(rev), _payload(payload),
          _scanner(scanner), _iw(iw), _ssthresh(ssthresh) {
        if (!_flows.empty()) ev.sourceIsPending(*this, timeFromSec(_flows[0].start));
    }
    void doNextEvent() override {
        simtime_picosec now = eventlist().now();
        while (_next < _flows.size() && timeFromSec(_flows[_next].start) <= now) {
            const FlowSpec& f = _flows[_next];
            uint64_t pkts = f.size == 0 ? 1 : (f.size + _payload - 1) / _payload;
            OpenLoopTcpSrc* src = new OpenLoopTcpSrc(eventlist(), _next, pkts);
            CountingTcpSink* sink = new CountingTcpSink();
            src->set_cwnd((uint64_t)_iw * src->_mss);
            src->set_ssthresh((uint64_t)_ssthresh * src->_mss);
            Route* out = new Route();
            for (PacketSink* s : _fwd) out->push_back(s);
            out->push_back(sink);
            Route* back = new Route();
            for (PacketSink* s : _rev) back->push_back(s);
            back->push_back(src);
            src->connect(*out, *back, *sink, now);
            _scanner.add(src);
            srcs.push_back(src);
            sinks.push_back(sink);
            _next++;
        }
        if (_next < _flows.size()) eventlist().sourceIsPending(*this, timeFromSec(_flows[_next].start));
    }
    std::vector<OpenLoopTcpSrc*> srcs;
    std::vector<CountingTcpSink*> sinks;
private:
    const std::vector<FlowSpec>& _flows;
    std::vector<PacketSink*> _fwd, _rev;
    uint64_t _payload;
    size_t _next = 0;
    ActiveRtxScanner& _scanner;
    uint32_t _iw, _ssthresh;
};

static double peak_rss_mb() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) return atof(line.c_str() + 6) * 1024 / 1e6;
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s TRACE.csv [-option value ...]\n", argv[0]); return 2; }
    double rate_mbps = 1000, delay_ms = 10, duration = 60, access_gbps = 10, access_delay_us = 10, scan_ms = 10;
    long buffer_pkts = 1667, pkt = 1500, payload = 1446, iw = 10, ssthresh = 100;
    for (int i = 2; i + 1 < argc; i += 2) {
        std::string k = argv[i]; double v = atof(argv[i + 1]);
        if (k == "-rate_mbps") rate_mbps = v; else if (k == "-delay_ms") delay_ms = v;
        else if (k == "-buffer_pkts") buffer_pkts = (long)v; else if (k == "-pkt") pkt = (long)v;
        else if (k == "-mss") payload = (long)v; else if (k == "-duration") duration = v;
        else if (k == "-access_gbps") access_gbps = v; else if (k == "-access_delay_us") access_delay_us = v;
        else if (k == "-rto_scan_ms") scan_ms = v; else if (k == "-iw_pkts") iw = (long)v;
        else if (k == "-ssthresh_pkts") ssthresh = (long)v;
        else { fprintf(stderr, "unknown option %s\n", k.c_str()); return 2; }
    }
    std::vector<FlowSpec> flows;
    {
        FILE* f = fopen(argv[1], "r");
        if (!f) { perror(argv[1]); return 2; }
        char line[256];
        while (fgets(line, sizeof line, f)) {
            double s; unsigned long long b;
            if (sscanf(line, "%lf,%llu", &s, &b) == 2 && s < duration) flows.push_back({s, (uint64_t)b});
        }
        fclose(f);
    }
    std::cout.rdbuf(nullptr);                            // htsim's progress messages (cout) are not wanted
    auto t0 = std::chrono::steady_clock::now();

    Packet::set_packet_size((int)pkt);
    EventList& ev = EventList::getTheEventList();
    ev.setEndtime(timeFromSec(duration));
    const mem_b huge = (mem_b)1 << 40;
    Queue* bottleneck = new Queue(speedFromMbps(rate_mbps), (mem_b)buffer_pkts * pkt, ev, NULL);
    Queue* ack_queue = new Queue(speedFromMbps(rate_mbps), huge, ev, NULL);
    std::vector<PacketSink*> fwd, rev;
    auto access = [&](std::vector<PacketSink*>& path) {
        if (access_gbps <= 0) return;
        path.push_back(new Queue(speedFromMbps(access_gbps * 1000), huge, ev, NULL));
        path.push_back(new Pipe(timeFromUs(access_delay_us), ev));
    };
    access(fwd); fwd.push_back(bottleneck); fwd.push_back(new Pipe(timeFromMs(delay_ms), ev)); access(fwd);
    access(rev); rev.push_back(ack_queue); rev.push_back(new Pipe(timeFromMs(delay_ms), ev)); access(rev);

    ActiveRtxScanner scanner(timeFromMs(scan_ms), ev);
    Arrivals arrivals(ev, flows, fwd, rev, (uint64_t)payload, scanner, (uint32_t)iw, (uint32_t)ssthresh);

    auto t1 = std::chrono::steady_clock::now();
    uint64_t events = 0, completed = 0;
    while (ev.doNextEvent()) {
        events++;
        if (!OpenLoopTcpSrc::newly_done.empty()) {
            for (OpenLoopTcpSrc* s : OpenLoopTcpSrc::newly_done) {
                const FlowSpec& f = flows[s->id];
                double start = timeAsSec(timeFromSec(f.start)), end = timeAsSec(s->finished_at);
                printf("flow %zu %.9f %llu %llu %.9f %.9f\n", s->id, f.start, (unsigned long long)f.size,
                       (unsigned long long)s->pkts, end - start, end - timeAsSec(s->established_at));
                completed++;
            }
            OpenLoopTcpSrc::newly_done.clear();
        }
    }
    auto t2 = std::chrono::steady_clock::now();

    uint64_t delivered = 0, sent = 0;
    for (size_t i = 0; i < arrivals.srcs.size(); i++) {
        uint64_t cum = arrivals.sinks[i]->_cumulative_ack;
        if (cum > 1) delivered += (cum - 1) / pkt;       // in-order data packets at the receiver
        sent += arrivals.srcs[i]->_packets_sent / pkt;   // data packets sent, retransmissions included
    }
    printf("summary flows_in_trace=%zu flows_started=%zu flows_completed=%llu delivered_pkts=%llu "
           "rx_data_pkts=%llu sent_data_pkts=%llu bottleneck_drops=%d events=%llu setup_wall_s=%.6f "
           "loop_wall_s=%.6f peak_rss_mb=%.1f sim_s=%g\n",
           flows.size(), arrivals.srcs.size(), (unsigned long long)completed, (unsigned long long)delivered,
           (unsigned long long)CountingTcpSink::rx_data, (unsigned long long)sent, bottleneck->num_drops(),
           (unsigned long long)events, std::chrono::duration<double>(t1 - t0).count(),
           std::chrono::duration<double>(t2 - t1).count(), peak_rss_mb(), duration);
    return 0;
}
