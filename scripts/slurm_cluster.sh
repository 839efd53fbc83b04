#!/usr/bin/env bash
# A single-node SLURM cluster on this machine, for trying the workflow's SLURM profile.
#
#   scripts/slurm_cluster.sh start    # install Debian's slurm packages if missing, write slurm.conf, start daemons
#   scripts/slurm_cluster.sh status   # daemons alive? sinfo
#   scripts/slurm_cluster.sh stop     # kill the daemons this script started (by recorded PID)
#
# Needs root (apt-get, /etc/slurm/slurm.conf, daemons as root). No accounting database: the
# workflow profile (workflow/profiles/slurm) therefore queries job status with squeue, not sacct.
# State, logs and PID files live in $SLURM_DIR (default /tmp/tcpsim-slurm). slurm.conf is also
# copied to /etc/slurm/slurm.conf, because the executor plugin's inner srun drops SLURM_CONF; a
# slurm.conf that was there before is saved and put back by `stop`.
# Environment: SLURM_DIR, SLURM_MEM_MB (memory given to the node; default: MemTotal - 1 GB),
#              SLURM_DEF_MEM_PER_CPU (MB, default 1000), SLURM_PARTITION (default main).
set -euo pipefail

DIR="${SLURM_DIR:-/tmp/tcpsim-slurm}"
CONF="$DIR/slurm.conf"
ETC_CONF=/etc/slurm/slurm.conf
BACKUP="$DIR/etc-slurm.conf.backup"
PARTITION="${SLURM_PARTITION:-main}"
PIDS="$DIR/pids"                      # one "name pid" per line, written by start
MUNGE_SOCKET=/run/munge/munge.socket.2

say() { printf 'slurm_cluster: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

need_root() { [ "$(id -u)" = 0 ] || die "must run as root (apt-get, /etc/slurm, daemons); current uid $(id -u)"; }

install_packages() {
    local missing=()
    command -v slurmctld >/dev/null || missing+=(slurmctld)
    command -v slurmd >/dev/null || missing+=(slurmd)
    command -v sbatch >/dev/null || missing+=(slurm-client)
    command -v munged >/dev/null || missing+=(munge)
    [ ${#missing[@]} = 0 ] && return 0
    say "installing ${missing[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq </dev/null >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null \
        || die "apt-get install ${missing[*]} failed"
}

pid_of() { [ -f "$PIDS" ] && awk -v n="$1" '$1 == n {print $2}' "$PIDS" | tail -1 || true; }
alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }

wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...
    local t=$1 what=$2; shift 2
    for _ in $(seq $((t * 5))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
    die "$what did not come up within ${t}s (logs in $DIR)"
}

write_conf() {
    local host cpus mem_mb
    host=$(hostname -s)
    cpus=$(nproc --all)
    mem_mb=${SLURM_MEM_MB:-$(awk '/MemTotal/ {m = int($2 / 1024) - 1024; print (m > 512 ? m : 512)}' /proc/meminfo)}
    mkdir -p "$DIR/state" "$DIR/spool"
    cat >"$CONF" <<EOF
# Written by scripts/slurm_cluster.sh: single node, no accounting database.
ClusterName=tcpsim
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
# no accounting: finished jobs stay visible to squeue for MinJobAge seconds
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=3600
# a job without a memory request gets this per CPU, not the whole node
DefMemPerCPU=${SLURM_DEF_MEM_PER_CPU:-1000}
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=$PARTITION Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    mkdir -p /etc/slurm
    if [ -e "$ETC_CONF" ] && ! cmp -s "$ETC_CONF" "$CONF" && [ ! -e "$BACKUP" ]; then
        grep -q 'Written by scripts/slurm_cluster.sh' "$ETC_CONF" || cp -p "$ETC_CONF" "$BACKUP"
    fi
    cp "$CONF" "$ETC_CONF"
    say "wrote $CONF (node $host, $cpus CPUs, ${mem_mb} MB) and copied it to $ETC_CONF"
}

start() {
    need_root
    if alive "$(pid_of slurmctld)" && alive "$(pid_of slurmd)"; then
        say "already running (slurmctld $(pid_of slurmctld), slurmd $(pid_of slurmd))"; return 0
    fi
    install_packages
    mkdir -p "$DIR"
    : >"$PIDS"
    write_conf
    export SLURM_CONF="$CONF"

    if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
        say "munged already running; using it"
    else
        mkdir -p /run/munge /var/lib/munge /var/log/munge
        [ -s /etc/munge/munge.key ] || { mungekey --create --keyfile=/etc/munge/munge.key 2>/dev/null \
            || dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null; chmod 600 /etc/munge/munge.key; }
        setsid munged --force --foreground --socket="$MUNGE_SOCKET" --log-file="$DIR/munged.log" \
            --pid-file="$DIR/munged.pid" </dev/null >>"$DIR/munged.out" 2>&1 &
        echo "munged $!" >>"$PIDS"
        wait_for 20 munged sh -c "munge -n </dev/null | unmunge"
    fi

    setsid slurmctld -D -c -f "$CONF" </dev/null >>"$DIR/slurmctld.out" 2>&1 &
    echo "slurmctld $!" >>"$PIDS"
    wait_for 30 slurmctld scontrol ping
    setsid slurmd -D -f "$CONF" </dev/null >>"$DIR/slurmd.out" 2>&1 &
    echo "slurmd $!" >>"$PIDS"
    wait_for 60 "node $(hostname -s)" sh -c "sinfo -h -N -o %t | grep -Eq '^(idle|mix|alloc)'"
    say "started: $(tr '\n' ' ' <"$PIDS")"
    sinfo
}

stop() {
    [ -f "$PIDS" ] || { say "not started by this script (no $PIDS)"; return 0; }
    local name pid
    for name in slurmd slurmctld munged; do   # reverse start order
        pid=$(pid_of "$name")
        if alive "$pid"; then
            kill -TERM "$pid"
            for _ in $(seq 50); do alive "$pid" || break; sleep 0.2; done
            alive "$pid" && kill -KILL "$pid"
            say "stopped $name ($pid)"
        fi
    done
    rm -f "$PIDS"
    if [ -f "$BACKUP" ]; then mv "$BACKUP" "$ETC_CONF"; say "restored the previous $ETC_CONF"
    elif [ -f "$ETC_CONF" ] && grep -q 'Written by scripts/slurm_cluster.sh' "$ETC_CONF"; then rm -f "$ETC_CONF"; fi
}

status() {
    local name pid rc=0
    for name in munged slurmctld slurmd; do
        pid=$(pid_of "$name")
        if alive "$pid"; then echo "$name running (pid $pid)"
        elif [ "$name" = munged ] && [ -f "$PIDS" ]; then echo "munged: not started by this script"
        else echo "$name not running"; rc=1; fi
    done
    [ $rc = 0 ] && SLURM_CONF="$CONF" sinfo
    return $rc
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
