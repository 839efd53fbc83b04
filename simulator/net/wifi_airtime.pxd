# Airtime arithmetic of the 802.11 HT/VHT PHY, shared by the saturated medium (wifi_mac.pyx) and the
# packet network's Wi-Fi channel (wifi_network.pyx): header-only, inlined where it is used.


cdef inline long long ppdu_ns(long long psdu_bytes, int dbps, int encoders, int preamble_us,
                              bint short_gi) noexcept nogil:
    # HT/VHT TXTIME (19.4.3, 21.4.3): preamble + 4 us per symbol of 16 service + 8 * length + 6 tail
    # bits per encoder; with the short GI the symbols are 3.6 us, rounded up to 4 us as a whole
    cdef long long nsym = (16 + 8 * psdu_bytes + 6 * encoders + dbps - 1) // dbps
    if short_gi:
        nsym = (9 * nsym + 9) // 10
    return (preamble_us + 4 * nsym) * 1000


cdef inline long long add_subframe(long long ampdu_bytes, long long mpdu) noexcept nogil:
    # the previous subframe is padded to 4 bytes, then a 4-byte delimiter and the MPDU follow
    return ampdu_bytes + (4 - ampdu_bytes % 4) % 4 + 4 + mpdu
