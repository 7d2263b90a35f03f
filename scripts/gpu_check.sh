#!/usr/bin/env bash
# gpu-check: gpuir's GPU checks in one command, for a machine with an NVIDIA GPU.
#
#   make gpu-check                          # = bash scripts/gpu_check.sh
#   bash scripts/gpu_check.sh wheels        # on a machine with PyPI: fill wheels/ for one without
#
# `check` (the default) runs, each step time-bounded and logged:
#   1. env     nvidia-smi, the Python, the CUDA toolkit found;
#   2. setup   a Python with gpuir, its dependencies and PyCUDA: the project's .venv when it
#              works (PyCUDA installed into it: from wheels/ if there is a matching wheel, else
#              built from PyPI's sdist against the CUDA headers found), else the machine's
#              python3 with everything installed offline from wheels/ into a --target folder
#              ($GPU_CHECK_SITE, default /tmp/gpuir-gpu-site), gpuir itself linked in;
#   3. pytest  tests/test_cuda_provider.py (the cuda provider against interp, errors, faults,
#              the compiled host against the interpreted host);
#   4. lit     tests/lit/cuda (gpu-run --provider cuda: host code compiled, the default);
#   5. bench   benchmarks/gpu.py (saxpy bandwidth, launch overhead; ratios).
# Figures and logs go to $OUT when it is set, else benchmarks/results/ (at most 7 files:
# gpu_check.log, env.txt, setup.log, pytest.log, lit.log, gpu_bench.md, gpu_bench.json).
# Without an NVIDIA GPU it says so and exits 0. Exit status: 0 when every step passed.
#
# `wheels` (needs PyPI; no GPU) fills wheels/ (git-ignored) with what an offline GPU machine
# lacks, for the Python given by $WHEEL_PYTHON (default: a python3.12 on PATH or under pyenv):
# xdsl and its dependencies, llvmlite (recompressed with LZMA to fit a 64 MiB transfer), lit,
# filecheck, PyCUDA's dependencies, PyCUDA's sdist and a PyCUDA wheel built here against the
# CUDA headers found (a toolkit, or the nvidia-cuda-runtime wheel) and a stub libcuda.so (no GPU
# is needed to build it). About 5 minutes; run again, it only adds what is missing.
#
# Knobs: GPU_CHECK_TIMEOUT_{SETUP,PYTEST,LIT,BENCH} (seconds; defaults 240/150/90/60: with the
# env step's 30, a whole run ends within 570 s even when PyCUDA must be built from its sdist,
# which takes about 3 minutes), GPU_CHECK_SITE, WHEEL_PYTHON,
# GPU_CHECK_FORCE=1 (run the steps where no GPU is found: tests the set-up; the GPU tests skip).

set -u -o pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WHEELS="$ROOT/wheels"
PYCUDA_VERSION="2026.1"
XDSL_VERSION="0.75.0"
LLVMLITE_VERSION="0.50.0"
# What an offline machine needs besides numpy, pytest, typing-extensions and MarkupSafe.
OFFLINE_PACKAGES=(
    "xdsl==$XDSL_VERSION" "immutabledict==4.3.1" "ordered-set==4.1.0"
    "llvmlite==$LLVMLITE_VERSION" "lit==23.1.5" "filecheck==1.0.6"
    "pytools==2026.1.1" "platformdirs==4.14.8" "siphash24==1.9" "mako==1.4.3"
)
START="${GPU_CHECK_START:-$(date +%s)}"
export GPU_CHECK_START="$START"  # the steps' clocks count from the start of the check

say() { printf '[gpu-check %4ss] %s\n' "$(($(date +%s) - START))" "$*"; }

# --- building PyCUDA -------------------------------------------------------------------------

# cuda_include PYTHON: a folder holding cuda.h (CUDA_ROOT, CUDA_HOME, nvcc's toolkit,
# /usr/local/cuda, or the nvidia-cuda-runtime wheel of PYTHON).
cuda_include() {
    local python="$1" dir nvcc
    for dir in "${CUDA_ROOT:-}" "${CUDA_HOME:-}" /usr/local/cuda; do
        [ -n "$dir" ] && [ -f "$dir/include/cuda.h" ] && { echo "$dir/include"; return 0; }
    done
    if nvcc="$(command -v nvcc)"; then
        dir="$(dirname "$(dirname "$(readlink -f "$nvcc")")")"
        [ -f "$dir/include/cuda.h" ] && { echo "$dir/include"; return 0; }
    fi
    "$python" - <<'EOF'
import os
try:
    import nvidia
except ImportError:
    raise SystemExit(1)
for root in nvidia.__path__:
    for name in ("cu13", "cuda_runtime", "cu12"):
        if os.path.isfile(os.path.join(root, name, "include", "cuda.h")):
            print(os.path.join(root, name, "include"))
            raise SystemExit(0)
raise SystemExit(1)
EOF
}

# build_pycuda PYTHON SDIST OUTDIR ISOLATION: a PyCUDA wheel for PYTHON in OUTDIR, from the
# sdist (a .tar.gz), linked against a stub libcuda.so whose soname is the driver's, so that the
# wheel loads the real driver (libcuda.so.1) at run time. CURAND is left out (gpuir needs only
# the driver API). ISOLATION: "isolated" (pip fetches the build dependencies) or "offline".
build_pycuda() {
    local python="$1" sdist="$2" outdir="$3" isolation="$4" include work
    if ! include="$(cuda_include "$python")"; then
        say "no CUDA headers (cuda.h) found: set CUDA_ROOT, or pip install nvidia-cuda-runtime"
        return 1
    fi
    work="$(mktemp -d /tmp/gpuir-pycuda.XXXXXX)"
    mkdir -p "$work/stub"
    printf 'void gpuir_libcuda_stub(void) {}\n' >"$work/stub/stub.c"
    if ! gcc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$work/stub/libcuda.so" "$work/stub/stub.c"; then
        say "cannot build the stub libcuda.so (is gcc installed?)"
        return 1
    fi
    tar -xzf "$sdist" -C "$work" || return 1
    local src
    src="$(find "$work" -maxdepth 1 -type d -name 'pycuda-*' | head -1)"
    cat >"$src/siteconf.py" <<EOF
CUDA_ROOT = '$(dirname "$include")'
CUDA_INC_DIR = ['$include']
CUDADRV_LIB_DIR = ['$work/stub']
CUDADRV_LIBNAME = ['cuda']
CUDA_ENABLE_CURAND = False
CUDA_ENABLE_GL = False
USE_SHIPPED_BOOST = True
CXXFLAGS = ['-Wno-deprecated-declarations']
LDFLAGS = []
EOF
    say "building PyCUDA $(basename "$sdist") for $("$python" -c 'import sys; print(sys.version.split()[0])') against $include (a few minutes)"
    local flags=(--no-deps -w "$outdir")
    [ "$isolation" = offline ] && flags+=(--no-build-isolation --no-index)
    # The stub defines no cu* function: without --no-as-needed (before -lcuda, so in LDFLAGS,
    # which distutils puts first) the linker would drop it, and the real driver with it.
    LDFLAGS="-Wl,--no-as-needed ${LDFLAGS:-}" "$python" -m pip wheel "${flags[@]}" "$src"
    local status=$?
    rm -rf "$work"
    [ $status = 0 ] || return $status
    "$python" - "$outdir" <<'EOF'
import glob, sys, zipfile
for wheel in glob.glob(f"{sys.argv[1]}/pycuda-*.whl"):
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.startswith("pycuda/_driver"))
        if b"libcuda.so.1" not in z.read(name):
            sys.exit(f"{wheel}: its _driver does not load libcuda.so.1; rebuild it")
EOF
}

# --- wheels: fill wheels/ on a machine with PyPI -----------------------------------------------

find_wheel_python() {
    if [ -n "${WHEEL_PYTHON:-}" ]; then echo "$WHEEL_PYTHON"; return 0; fi
    local root candidate
    root="$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"
    for candidate in "$(command -v python3.12)" "$root"/versions/3.12*/bin/python3.12; do
        # (a pyenv shim is on PATH even where it cannot run)
        if [ -x "$candidate" ] && "$candidate" -c 'import sys' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

# recompress WHEEL: rewrite a wheel with LZMA (pip reads it: a wheel is a zip file, and
# Python's zipfile reads LZMA members); llvmlite shrinks from 57 MiB to about 40.
recompress() {
    python3 - "$1" <<'EOF'
import os, sys, zipfile
path = sys.argv[1]
tmp = path + ".tmp"
with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_LZMA) as dst:
    for info in src.infolist():
        dst.writestr(info, src.read(info.filename), compress_type=zipfile.ZIP_LZMA)
os.replace(tmp, path)
EOF
}

cmd_wheels() {
    local python version tag
    if ! python="$(find_wheel_python)"; then
        say "no python3.12 found (set WHEEL_PYTHON): only portable wheels and the PyCUDA sdist"
        python=""
    fi
    version="${WHEEL_PYTHON_VERSION:-$([ -n "$python" ] && "$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")' || echo 3.12)}"
    tag="cp${version/./}"
    mkdir -p "$WHEELS"
    say "wheels for Python $version ($tag) into $WHEELS"
    local platforms=()
    for p in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64 manylinux1_x86_64; do
        platforms+=(--platform "$p")
    done
    # Only what is not there yet (pip would fetch the recompressed llvmlite again).
    local wanted=() package name
    for package in "${OFFLINE_PACKAGES[@]}"; do
        name="${package%%==*}"
        ls "$WHEELS/${name//-/_}"-*.whl >/dev/null 2>&1 || wanted+=("$package")
    done
    if [ ${#wanted[@]} -gt 0 ]; then
        python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version "$version" \
            --implementation cp "${platforms[@]}" -d "$WHEELS" "${wanted[@]}" || return 1
    fi
    if [ ! -f "$WHEELS/pycuda-$PYCUDA_VERSION.tar.gz" ]; then
        python3 -m pip download --quiet --no-deps -d "$WHEELS" "pycuda==$PYCUDA_VERSION" || return 1
    fi
    local llvmlite
    for llvmlite in "$WHEELS"/llvmlite-*.whl; do
        if [ "$(stat -c %s "$llvmlite")" -gt 45000000 ]; then
            say "recompressing $(basename "$llvmlite") (a minute or two)"
            recompress "$llvmlite" || return 1
        fi
    done
    if [ -n "$python" ] && ! ls "$WHEELS"/pycuda-*-"$tag"-*.whl >/dev/null 2>&1; then
        build_pycuda "$python" "$WHEELS/pycuda-$PYCUDA_VERSION.tar.gz" "$WHEELS" isolated || return 1
    fi
    ls -la "$WHEELS"
    say "wheels/: $(du -sh "$WHEELS" | cut -f1); carry it to the GPU machine (device run: carry [\"wheels\"])"
}

# --- check: on the GPU machine ------------------------------------------------------------------

RESULTS="${OUT:-$ROOT/benchmarks/results}"
ENV_FILE="${TMPDIR:-/tmp}/gpuir-gpu-check.env"
SUMMARY=()
FAILED=0

# step NAME SECONDS LOGFILE COMMAND...: run COMMAND with a time limit, its output to LOGFILE
# (none when "") and to the terminal, and record the outcome in SUMMARY.
step() {
    local name="$1" limit="$2" logfile="$3" t0 status took
    shift 3
    say "step $name: $* (limit ${limit}s${logfile:+, log $(basename "$logfile")})"
    t0=$(date +%s)
    timeout --kill-after=15 "$limit" "$@" 2>&1 | tee -a "${logfile:-/dev/null}"
    status=${PIPESTATUS[0]}
    took=$(($(date +%s) - t0))
    case $status in
        0) SUMMARY+=("$name: ok (${took}s)") ;;
        124 | 137) SUMMARY+=("$name: TIMED OUT after ${limit}s"); FAILED=1 ;;
        *) SUMMARY+=("$name: FAILED (exit status $status, ${took}s)"); FAILED=1 ;;
    esac
    say "step $name: exit status $status after ${took}s"
    return "$status"
}

have_gpu() {
    if command -v nvidia-smi >/dev/null && timeout 30 nvidia-smi -L >/dev/null 2>&1; then
        return 0
    fi
    [ -e /dev/nvidia0 ]
}

cmd_env() {
    {
        echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "host: $(uname -a)"
        echo "git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
        echo "python3: $(command -v python3) $(python3 --version 2>&1)"
        echo "nvcc: $(command -v nvcc || echo none)"
        echo "CUDA_HOME: ${CUDA_HOME:-unset}"
        echo "CUDA headers: $(cuda_include python3 2>/dev/null || echo none)"
        echo "wheels/: $(ls "$WHEELS" 2>/dev/null | tr '\n' ' ')"
        echo
        timeout 30 nvidia-smi 2>&1 || echo "nvidia-smi: not available"
    } >"$RESULTS/env.txt"
    head -5 "$RESULTS/env.txt"
    grep -E "Driver Version|NVIDIA [A-Z]" "$RESULTS/env.txt" | head -4
    return 0
}

# _setup: a Python with gpuir, its dependencies and PyCUDA; writes ENV_FILE (PY, PATH,
# PYTHONPATH) for the steps after it.
cmd_setup() {
    local site="${GPU_CHECK_SITE:-/tmp/gpuir-gpu-site}"
    if [ -x "$ROOT/.venv/bin/python" ] &&
        "$ROOT/.venv/bin/python" -c 'import gpuir, xdsl, llvmlite, lit' 2>/dev/null; then
        PY="$ROOT/.venv/bin/python"
        export PATH="$ROOT/.venv/bin:$PATH"
        say "using the project's venv: $PY"
        install_pycuda_into_venv || return 1
    else
        PY="$(command -v python3)"
        say "no working .venv: installing offline from wheels/ into $site for $PY"
        install_offline "$site" || return 1
        export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
        export PATH="$site/bin:$PATH"
    fi
    {
        echo "PY='$PY'"
        echo "export PATH='$PATH'"
        echo "export PYTHONPATH='${PYTHONPATH:-}'"
    } >"$ENV_FILE"
    "$PY" - <<'EOF'
import llvmlite
import pycuda
from gpuir.runtime import unavailable_reason
print("llvmlite", llvmlite.__version__, "| pycuda", pycuda.VERSION_TEXT)
print("cuda provider:", unavailable_reason("cuda") or "available")
EOF
}

install_offline() {
    local site="$1"
    if [ ! -d "$WHEELS" ]; then
        say "wheels/ is missing: run 'bash scripts/gpu_check.sh wheels' on a machine with PyPI"
        say "and carry wheels/ along"
        return 1
    fi
    mkdir -p "$site/bin"
    "$PY" -m pip install --quiet --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --find-links "$WHEELS" --target "$site" "${OFFLINE_PACKAGES[@]}" || return 1
    if ! "$PY" -m pip install --quiet --no-index --no-deps --no-compile --no-cache-dir \
        --upgrade --find-links "$WHEELS" --only-binary=:all: --target "$site" pycuda ||
        ! PYTHONPATH="$site" "$PY" -c 'import pycuda._driver'; then
        say "no PyCUDA wheel in wheels/ that loads here: building it from the sdist"
        local built
        built="$(mktemp -d /tmp/gpuir-wheel.XXXXXX)"
        build_pycuda "$PY" "$(ls "$WHEELS"/pycuda-*.tar.gz | head -1)" "$built" offline || return 1
        "$PY" -m pip install --quiet --no-index --no-deps --no-cache-dir --upgrade \
            --target "$site" "$built"/pycuda-*.whl || return 1
    fi
    # gpuir is the repository root under the package name `gpuir`; then its two commands.
    ln -sfn "$ROOT" "$site/gpuir"
    local tool
    for tool in gpu_opt:gpu-opt gpu_run:gpu-run; do
        printf '#!%s\nimport sys\nfrom gpuir.tools.%s import main\nsys.exit(main())\n' \
            "$PY" "${tool%%:*}" >"$site/bin/${tool##*:}"
        chmod +x "$site/bin/${tool##*:}"
    done
}

install_pycuda_into_venv() {
    if "$PY" -c 'import pycuda' 2>/dev/null; then
        say "PyCUDA is installed"
        return 0
    fi
    if [ -d "$WHEELS" ] && "$PY" -m pip install --quiet --no-index --find-links "$WHEELS" \
        --only-binary=pycuda pycuda; then
        return 0
    fi
    local sdist built
    sdist="$(ls "$WHEELS"/pycuda-*.tar.gz 2>/dev/null | head -1)"
    if [ -z "$sdist" ]; then
        sdist="$(mktemp -d /tmp/gpuir-sdist.XXXXXX)"
        "$PY" -m pip download --quiet --no-deps -d "$sdist" "pycuda==$PYCUDA_VERSION" || return 1
        sdist="$(ls "$sdist"/pycuda-*.tar.gz | head -1)"
    fi
    built="$(mktemp -d /tmp/gpuir-wheel.XXXXXX)"
    build_pycuda "$PY" "$sdist" "$built" isolated || return 1
    "$PY" -m pip install --quiet "$built"/pycuda-*.whl
}

print_summary() {
    say "summary:"
    local line
    for line in "${SUMMARY[@]}"; do
        say "  $line"
    done
    if [ "$FAILED" = 0 ]; then say "ALL PASSED"; else say "SOME STEPS FAILED"; fi
}

cmd_check() {
    say "gpuir GPU check in $ROOT; results in $RESULTS"
    if [ -z "${GPU_CHECK_FORCE:-}" ] && ! have_gpu; then
        say "no NVIDIA GPU here (no working nvidia-smi, no /dev/nvidia0): nothing to check; SKIPPED"
        return 0
    fi
    # The toolkit's libdevice, for kernels that call math functions.
    if [ -z "${CUDA_HOME:-}" ] && command -v nvcc >/dev/null; then
        CUDA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")"
        export CUDA_HOME
    fi
    export PYTHONUNBUFFERED=1
    step env 30 "" bash "$0" _env
    rm -f "$ENV_FILE"
    if ! step setup "${GPU_CHECK_TIMEOUT_SETUP:-240}" "$RESULTS/setup.log" bash "$0" _setup ||
        [ ! -f "$ENV_FILE" ]; then
        say "setup failed: see setup.log"
        print_summary
        return 1
    fi
    # shellcheck disable=SC1090
    . "$ENV_FILE"
    cd "$ROOT" || return 1
    step pytest "${GPU_CHECK_TIMEOUT_PYTEST:-150}" "$RESULTS/pytest.log" \
        "$PY" -m pytest tests/test_cuda_provider.py -v -rs -p no:cacheprovider
    step lit "${GPU_CHECK_TIMEOUT_LIT:-90}" "$RESULTS/lit.log" \
        lit -sv tests/lit/cuda
    step bench "${GPU_CHECK_TIMEOUT_BENCH:-60}" "" "$PY" benchmarks/gpu.py --out "$RESULTS"
    print_summary
    return $FAILED
}

case "${1:-check}" in
    check)
        mkdir -p "$RESULTS"
        rm -f "$RESULTS"/{gpu_check.log,env.txt,setup.log,pytest.log,lit.log,gpu_bench.md,gpu_bench.json}
        cmd_check 2>&1 | tee "$RESULTS/gpu_check.log"
        exit "${PIPESTATUS[0]}"
        ;;
    _env) cmd_env ;;
    _setup) cmd_setup ;;
    wheels) cmd_wheels ;;
    -h | --help | help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//' ;;
    *)
        echo "usage: $0 [check|wheels]" >&2
        exit 2
        ;;
esac
