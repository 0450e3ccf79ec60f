#!/bin/sh
# One-shot: makes redis-node-1..3 one cluster of three masters, the hash slots split evenly, unless they
# already are one (a second `up`), then waits until every node reports the cluster ok.
set -eu
NODES='redis-node-1 redis-node-2 redis-node-3'

cluster_ok() {
  redis-cli -h "$1" cluster info | grep -q '^cluster_state:ok'
}

if cluster_ok redis-node-1; then
  echo 'Redis Cluster already formed'
  exit 0
fi

# CLUSTER MEET, which --cluster create sends, takes addresses, not names.
addresses=''
for node in $NODES; do
  addresses="$addresses $(getent hosts "$node" | awk '{ print $1 }'):6379"
done
# shellcheck disable=SC2086 # one word per node
redis-cli --cluster create $addresses --cluster-replicas 0 --cluster-yes

# --cluster create returns before every node has heard of every other.
for node in $NODES; do
  tries=60
  until cluster_ok "$node"; do
    tries=$((tries - 1))
    if [ "$tries" -eq 0 ]; then
      echo "Redis Cluster: $node did not report cluster_state:ok within 30 s" >&2
      exit 1
    fi
    sleep 0.5
  done
done
echo 'Redis Cluster formed'
