#!/usr/bin/env bash
# The rebuild-race sweep of EXPERIMENTS 19.2: rebuild_race_sweep.sh BINARY CONFIG SEEDS OUTSTANDING DELAYS
# (CONFIG: raid5 raid4 adaptraid5 floating raid6_one raid6_both; lists quoted), one line per run:
# integrity errors, reads checked, failed requests, lost sectors, rebuilt units. Files under $WORK.
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-/tmp/rebuild_race_sweep}; mkdir -p "$work"
bin=$1 cfg=$2 seeds=$3 outs=$4 delays=$5
for seed in $seeds; do for q in $outs; do for delay in $delays; do
  f=$work/$cfg.$seed.$q.$delay.yaml
  case $cfg in
    raid5|raid4|adaptraid5) disks=4; spec=$root/../shared/reference/disksim/validation/cheetah9LP.diskspecs; extra="" ;;
    floating) disks=4; spec=$root/scenarios/disks/ibm0661.diskspecs; extra="--set host.stripe_unit_sectors=4" ;;
    raid6_one|raid6_both) disks=6; spec=$root/../shared/reference/disksim/validation/cheetah9LP.diskspecs; extra="" ;;
  esac
  layout=$cfg; case $cfg in raid6_*) layout=raid6 ;; esac
  second=""
  [ $cfg = raid6_one ] && second="  - {kind: disk_loss, at_request: 6500, disk: 3}"
  [ $cfg = raid6_both ] && second="  - {kind: disk_loss, at_request: 6500, disk: 3, replace_after_ms: $delay}"
  cat > $f <<Y
disks:
  spec: $spec
  count: $disks
controller:
  enabled: true
  layout: $layout
workload:
  outstanding: $q
  read_fraction: 0.5
  request_sectors: 8
  address: hot_cold
  hot_space_fraction: 0.0005
  hot_access_fraction: 0.9
  data_tokens: true
  requests: 20000
  warmup_requests: 0
  seed: $seed
output:
  waves: false
faults:
  - {kind: disk_loss, at_request: 6000, disk: 1, replace_after_ms: $delay}
$second
Y
  out=$work/out.$cfg.$seed.$q.$delay
  rm -rf $out
  $bin run $f --out $out --quiet $extra > /dev/null 2>$out.err
  python3 - $out/stats.json $cfg $seed $q $delay <<'PY'
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except Exception as e:
    print(*sys.argv[2:], "NO_STATS"); sys.exit()
c = s["controller"]; fw = c["firmware"]
rb = fw.get("rebuild", {})
print(*sys.argv[2:], "integrity", c["integrity_errors"], "checked", c["reads_checked"],
      "failed", c["failed_requests"]["reads"] + c["failed_requests"]["writes"], "lost", fw.get("lost_sectors", 0),
      "rebuilt", rb.get("units_rebuilt", 0))
PY
done; done; done
