# Data mining flow sizes (VL2: A. Greenberg et al., "VL2: A Scalable and Flexible Data Center Network",
# SIGCOMM 2009, Fig. 2), as the literature replays them (pFabric, PIAS, CONGA): bytes, cumulative fraction
# of flows, linear between points. Copied from HKUST-SING/TrafficGenerator conf/VL2_CDF.txt
# (commit 1c1bc6577053ec1d609ce83e2e83616165af0fdd).
0 0
180 0.1
216 0.2
560 0.3
900 0.4
1100 0.5
1870 0.6
3160 0.7
10000 0.8
400000 0.9
3160000 0.95
100000000 0.98
1000000000 1
