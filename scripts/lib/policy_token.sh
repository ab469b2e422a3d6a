# shellcheck shell=bash
# Sourced by the scripts that run the simulator with a list of policies (e2e.sh,
# live_figures.sh). A policy token is NAME or NAME:PARAM=V[,PARAM=V], e.g.
# holt:calibrate=0.9; policy_token_args sets POLICY_ARGS to the simulator's options
# for it: --policy NAME [--param NAME.PARAM=V]...
policy_token_args() {
    local style=${1%%:*} settings=()
    POLICY_ARGS=(--policy "$style")
    if [[ $1 == *:* ]]; then
        IFS=, read -ra settings <<< "${1#*:}"
        for setting in "${settings[@]}"; do POLICY_ARGS+=(--param "$style.$setting"); done
    fi
}
