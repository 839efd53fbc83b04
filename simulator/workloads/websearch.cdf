# Web search flow sizes (DCTCP: M. Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010, Fig. 4),
# as the literature replays them: bytes, cumulative fraction of flows, linear between points.
# Copied from alibaba-edu/High-Precision-Congestion-Control traffic_gen/WebSearch_distribution.txt
# (commit 9cf8b9e8c8d04a3775e06c972c4699dcbce53c37; the same points as HKUST-SING/TrafficGenerator
# conf/DCTCP_CDF.txt), percent there, fractions here.
0 0
10000 0.15
20000 0.20
30000 0.30
50000 0.40
80000 0.53
200000 0.60
1000000 0.70
2000000 0.80
5000000 0.90
10000000 0.97
30000000 1.00
